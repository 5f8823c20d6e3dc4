package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;

import dev.engram.entries.Change;
import dev.engram.entries.JournalFilter;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.kernel.JournalRecord;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The journal read in either direction from a cursor, as the console pages it: every record over the primary key
 * (store, seq), one entry's over {@code journal_entry} (store, scope, name, seq), a scope's or the lost updates picked
 * out of a seq range the caller bounds; each page bounded in bytes in PostgreSQL. And the record before each of some
 * changes, one index descent each, in one statement.
 */
@ApplicationScoped
class PgJournalRanges {

    /** A record's bytes as {@link JournalRecord#bytes} counts them: an entry's content, or a note's JSON. */
    private static final String BYTES = "case when j.kind = '" + JournalEntity.ENTRY + "' then "
            + "coalesce(octet_length(j.content), 0) else coalesce(octet_length(cast(j.record as text)), 0) end";

    @Inject
    SessionCalls calls;

    /** The page of {@link dev.engram.entries.Store#journalRange} and the record after it, never the rest. */
    List<JournalRecord> range(String store, JournalFilter filter, long after, long before, boolean newestFirst,
            int limit, long maxBytes) {
        Map<String, Object> args = args("store", store, "after", after, "before", before, "limit", limit,
                "maxBytes", maxBytes);
        filter.scope().ifPresent(s -> args.put("scope", s.value()));
        filter.name().ifPresent(n -> args.put("name", n));
        return calls.records(rangeSql(filter, newestFirst), args, StoreUnavailable::new).stream()
                .map(JournalEntity::record).toList();
    }

    /** The SQL of {@link #range}: fixed fragments only, the values bound by name. */
    static String rangeSql(JournalFilter filter, boolean newestFirst) {
        String order = newestFirst ? "desc" : "asc";
        StringBuilder where = new StringBuilder("j.store_id = :store and j.seq > :after and j.seq < :before");
        if (!filter.all()) {
            where.append(" and j.kind = '").append(JournalEntity.ENTRY).append("'");
        }
        filter.scope().ifPresent(s -> where.append(" and j.scope = :scope"));
        filter.name().ifPresent(n -> where.append(" and j.name = :name"));
        if (filter.lostOnly()) {
            where.append(" and j.prev <> j.replaced");
        }
        return "select j.* from (select j.*, coalesce(sum(" + BYTES + ") over (order by j.seq " + order
                + " rows between unbounded preceding and 1 preceding), 0) as bytes_before, "
                + "row_number() over (order by j.seq " + order + ") as position from journal j where " + where
                + " order by j.seq " + order + " limit :limit) j "
                + "where j.bytes_before <= :maxBytes or j.position <= 2 order by j.seq " + order;
    }

    /**
     * For each of {@code changes}, its entry's record just before it, by the change's seq. Each looked up is the
     * newest record of its entry below its seq; of those found for one entry, a change's own is the newest below
     * it (another would lie between it and its own, which is newer).
     */
    Map<Long, Change> previous(String store, Collection<Change> changes) {
        if (changes.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> args = args("store", store);
        StringBuilder values = new StringBuilder();
        int i = 0;
        for (Change c : changes) {
            values.append(i == 0 ? "" : ", ").append("(cast(:s").append(i).append(" as text), cast(:n").append(i)
                    .append(" as text), cast(:q").append(i).append(" as bigint))");
            args.put("s" + i, c.entry().scope().value());
            args.put("n" + i, c.entry().name());
            args.put("q" + i, c.seq());
            i++;
        }
        String sql = "select p.* from (values " + values + ") as w(scope, name, seq) cross join lateral "
                + "(select j.* from journal j where j.store_id = :store and j.scope = w.scope collate \"C\" "
                + "and j.name = w.name collate \"C\" and j.kind = '" + JournalEntity.ENTRY + "' and j.seq < w.seq "
                + "order by j.seq desc limit 1) p";
        Map<String, List<Change>> found = new HashMap<>();
        for (JournalEntity row : calls.records(sql, args, StoreUnavailable::new)) {
            Change p = row.change();
            found.computeIfAbsent(key(p), k -> new ArrayList<>()).add(p);
        }
        Map<Long, Change> previous = new HashMap<>();
        for (Change c : changes) {
            found.getOrDefault(key(c), List.of()).stream().filter(p -> p.seq() < c.seq())
                    .max(Comparator.comparingLong(Change::seq)).ifPresent(p -> previous.put(c.seq(), p));
        }
        return previous;
    }

    private static String key(Change c) {
        return c.entry().scope().value() + "/" + c.entry().name();
    }
}
