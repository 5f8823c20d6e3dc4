package dev.engram.contexts.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.engram.contexts.ContextChange;
import dev.engram.contexts.ContextOutline;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.Step;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.contexts.persistence.ContextRecords.StoredState;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.persistence.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The reads of {@link PgContexts} that show contexts rather than change them (a listing, a page of steps, a context's
 * journal records, its cache's entries), each one statement over an index led by the store and the context, reading
 * no more rows than it answers and no more of each than it shows.
 */
final class ContextReads {

    /**
     * The tail of {@code context.state} ({@link StoredState}'s last three members, in their order), read in the
     * database so that a listing does not fetch whole states: a string member that holds such text has its quotes
     * escaped, so only the state's own members match. A state that does not match is fetched and parsed instead.
     */
    private static final String TAIL = "regexp_match(right(c.state, 200), '\"compacted_through_index\":(-?[0-9]+),"
            + "\"last_known_used\":(-?[0-9]+),\"pending_delta\":(-?[0-9]+)\\}$')";

    private static final String OUTLINE = "select c.id, c.config::text, c.steps, c.created_at, c.updated_at, t.m[1], "
            + "t.m[2], t.m[3], case when t.m is null then c.state end from context c cross join lateral (select "
            + TAIL + " as m) t ";

    private static final TypeReference<Map<String, Object>> MEMBERS = new TypeReference<>() {
    };

    private final Sql sql;

    ContextReads(Sql sql) {
        this.sql = sql;
    }

    Paged<ContextOutline> list(String store, String after, int limit) {
        List<ContextOutline> fetched = sql.list(OUTLINE + "where c.store_id = ? and c.id > ? order by c.id limit ?",
                ContextReads::outline, store, after == null ? "" : after, Math.max(0, limit) + 1);
        return Paged.of(fetched, limit, Long.MAX_VALUE, o -> 0);
    }

    ContextOutline outline(String store, String id) {
        return sql.first(OUTLINE + "where c.store_id = ? and c.id = ?", ContextReads::outline, store, id)
                .orElseThrow(() -> NotFound.context(id));
    }

    /** The steps' rows from {@code from}; a context whose state predates its steps' rows (V12) has them there. */
    List<Step> steps(String store, String id, int from, int limit) {
        int start = Math.max(0, from);
        int most = Math.max(0, limit);
        return sql.connected(tx -> {
            int count = tx.first("select steps from context where store_id = ? and id = ?", r -> r.getInt(1), store,
                    id).orElseThrow(() -> NotFound.context(id));
            if (start >= count || most == 0) {
                return List.of();
            }
            List<Step> rows = tx.list("select step from context_step where store_id = ? and context_id = ? "
                    + "and idx >= ? order by idx limit ?", r -> ContextRecords.step(r.getString(1)), store, id, start,
                    most);
            if (!rows.isEmpty()) {
                return rows;
            }
            List<Step> old = tx.one("select state from context where store_id = ? and id = ?",
                    r -> ContextRecords.storedState(r.getString(1)), store, id).steps();
            return List.copyOf(old.subList(Math.min(start, old.size()), Math.min(old.size(), start + most)));
        });
    }

    /**
     * Newest first over the journal's index of a name's records (store, scope "", the context's id, seq), reading of
     * each record only its fill, and the whole of a compaction's (which carries no steps or texts).
     */
    Paged<ContextChange> changes(String store, String id, Set<String> kinds, long before, int limit) {
        String[] wanted = kinds.toArray(String[]::new);
        List<ContextChange> fetched = new ArrayList<>();
        List<ContextChange> read = sql.list("select seq, kind, at, record->'" + ContextStore.FILL + "', case when "
                + "kind = '" + ContextChange.COMPACTED + "' then record end from journal where store_id = ? "
                + "and scope = '' and name = ? and kind like 'context.%' and seq < ? and (cardinality(?::text[]) = 0 "
                + "or kind = any(?::text[]) or kind = '" + ContextChange.DELETED + "') order by seq desc limit ?",
                ContextReads::change, store, id, before, wanted, wanted, Math.max(0, limit) + 1);
        for (ContextChange c : read) {
            if (c.kind().equals(ContextChange.DELETED)) {
                return new Paged<>(fetched.subList(0, Math.min(fetched.size(), limit)), false);
            }
            fetched.add(c);
        }
        return Paged.of(fetched, limit, Long.MAX_VALUE, c -> 0);
    }

    Paged<ListedResult> toolResults(String store, String id, String after, int limit) {
        return sql.connected(tx -> {
            if (tx.first("select 1 from context where store_id = ? and id = ?", r -> 1, store, id).isEmpty()) {
                throw NotFound.context(id);
            }
            List<ListedResult> fetched = tx.list("select hash, short_hash, tool_name, file_backed, file_path, "
                    + "file_mtime, file_size, octet_length(content), cached_at from tool_result where store_id = ? "
                    + "and context_id = ? and short_hash > ? order by short_hash limit ?", ContextReads::listed,
                    store, id, after == null ? "" : after, Math.max(0, limit) + 1);
            return Paged.of(fetched, limit, Long.MAX_VALUE, r -> 0);
        });
    }

    private static ContextOutline outline(ResultSet r) throws SQLException {
        String id = r.getString(1);
        var config = ContextRecords.config(r.getString(2));
        int steps = r.getInt(3);
        Instant created = r.getObject(4, OffsetDateTime.class).toInstant();
        Instant updated = r.getObject(5, OffsetDateTime.class).toInstant();
        String state = r.getString(9);
        if (state != null) {
            StoredState s = ContextRecords.storedState(state);
            return new ContextOutline(id, config, steps, s.lastKnownUsed() + s.pendingDelta(),
                    s.compacted() ? s.compactedThroughIndex() : 0, created, updated);
        }
        return new ContextOutline(id, config, steps, Integer.parseInt(r.getString(7)) + Integer.parseInt(
                r.getString(8)), Integer.parseInt(r.getString(6)), created, updated);
    }

    private static ContextChange change(ResultSet r) throws SQLException {
        Map<String, Object> members = new LinkedHashMap<>();
        String compaction = r.getString(5);
        if (compaction != null) {
            members.putAll(parse(compaction));
        }
        String fill = r.getString(4);
        if (fill != null) {
            members.put(ContextStore.FILL, parse(fill));
        }
        return ContextChange.of(r.getLong(1), r.getString(2), r.getObject(3, OffsetDateTime.class).toInstant(),
                members);
    }

    private static ListedResult listed(ResultSet r) throws SQLException {
        OffsetDateTime at = r.getObject(9, OffsetDateTime.class);
        return new ListedResult(r.getString(1), r.getString(2), r.getString(3), r.getBoolean(4), r.getString(5),
                r.getLong(6), r.getLong(7), r.getLong(8), Optional.ofNullable(at).map(OffsetDateTime::toInstant));
    }

    private static Map<String, Object> parse(String json) {
        try {
            return ContextRecords.JSON.readValue(json, MEMBERS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A context's journal record is not the JSON Engram wrote", e);
        }
    }
}
