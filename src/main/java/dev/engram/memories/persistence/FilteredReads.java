package dev.engram.memories.persistence;

import dev.engram.kernel.Paged;
import dev.engram.memories.BankSummary;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * A store's memories a page at a time, as a console lists them, and its banks counted. A page is read in the order of
 * an index led by the store (a bank's: {@code memory_by_bank}; every bank's: {@code memory_by_created}), from the
 * place the page starts at, so no page counts the memories before it; the filters without an index of their own
 * (type, tag, archived, stale) are checked on the rows the scan reads.
 */
interface FilteredReads extends MemoryReads {

    /** The condition that a row comes after the place of a bank's order: importance, then creation time, then id. */
    String AFTER_BY_IMPORTANCE = "and m.importance <= ? and (m.importance < ? or m.created_at < ? "
            + "or (m.created_at = ? and m.id > ?)) ";
    /** The condition that a row comes after the place of the newest-first order: creation time, then id. */
    String AFTER_BY_CREATED = "and m.created_at <= ? and (m.created_at < ? or m.id > ?) ";
    String STALE = "(m.valid_to is not null or m.superseded_by <> '')";

    @Override
    default Paged<Memory> page(MemoryFilter filter, MemoryFilter.After after, int limit, long maxBytes) {
        StringBuilder where = new StringBuilder("where m.store_id = ? ");
        List<Object> args = new ArrayList<>(List.of(store()));
        if (filter.byImportance()) {
            where.append("and m.bank = ? ");
            args.add(filter.bank());
        }
        if (after != null && filter.byImportance()) {
            where.append(AFTER_BY_IMPORTANCE);
            args.addAll(List.of(after.importance(), after.importance(), after.createdAt(), after.createdAt(),
                    after.id()));
        } else if (after != null) {
            where.append(AFTER_BY_CREATED);
            args.addAll(List.of(after.createdAt(), after.createdAt(), after.id()));
        }
        if (!filter.type().isEmpty()) {
            where.append("and m.type = ? ");
            args.add(filter.type());
        }
        if (!filter.tag().isEmpty()) {
            where.append("and ? = any(m.tags) ");
            args.add(filter.tag());
        }
        if (filter.archived() != null) {
            where.append("and m.archived = ? ");
            args.add(filter.archived());
        }
        if (filter.stale() != null) {
            where.append("and " + STALE + " = ? ");
            args.add(filter.stale());
        }
        int n = limit <= 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
        args.add(n + 1);
        args.add(0);
        Paged<Memory> read = bounded(where.toString(), filter.byImportance() ? MOST_IMPORTANT : NEWEST, maxBytes,
                args.toArray());
        Paged<Memory> page = Paged.of(read.items(), n, maxBytes, Memory::bytes);
        return new Paged<>(page.items(), page.more() || read.more());
    }

    @Override
    default List<BankSummary> banks(String after, int limit) {
        String from = after == null ? "" : after;
        int n = Math.max(0, limit);
        return sql().list("select b.bank, c.memories, c.archived, c.stale from (select bank from ("
                + "(select distinct bank from memory where store_id = ? and bank > ? order by bank limit ?) union "
                + "(select bank from bank_slot where store_id = ? and bank > ? group by bank order by bank limit ?) "
                + "union (select bank from bank_settings where store_id = ? and bank > ? order by bank limit ?)) u "
                + "order by bank limit ?) b cross join lateral (select count(*) as memories, count(*) filter (where "
                + "m.archived) as archived, count(*) filter (where " + STALE + ") as stale from memory m "
                + "where m.store_id = ? and m.bank = b.bank) c order by b.bank",
                r -> new BankSummary(r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4)),
                store(), from, n, store(), from, n, store(), from, n, n, store());
    }
}
