package dev.engram.memories.persistence;

import dev.engram.kernel.Paged;
import dev.engram.memories.Bank;
import dev.engram.memories.Entrypoint;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryPage;
import dev.engram.memories.Recall;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/** A store's memories read back: one by id, pages, a bank's or a type's, each with its access count. */
interface MemoryReads extends Recall, OneStore {

    String NEWEST = "m.created_at desc, m.id";
    String MOST_IMPORTANT = "m.importance desc, m.created_at desc, m.id";

    @Override
    default Memory get(String id) {
        return sql().connected(tx -> held(tx, id));
    }

    /** The memories of {@code ids} the store holds, in no order. */
    default List<Memory> all(String[] ids) {
        return sql().list(SELECT + "where m.store_id = ? and m.id = any(?)", MemoryRecords::read, store(), ids);
    }

    @Override
    default MemoryPage list(int limit, int offset) {
        List<Memory> page = sql().list(SELECT + "where m.store_id = ? order by " + NEWEST + " limit ? offset ?",
                MemoryRecords::read, store(), limit(limit), Math.max(0, offset));
        return new MemoryPage(page, count());
    }

    @Override
    default MemoryPage list(int limit, int offset, long maxBytes) {
        Paged<Memory> page = bounded("where m.store_id = ? ", NEWEST, maxBytes, store(), limit(limit),
                Math.max(0, offset));
        return new MemoryPage(page.items(), count(), page.more());
    }

    @Override
    default Paged<Memory> inBank(Bank bank, int limit, long maxBytes) {
        return bounded("where m.store_id = ? and m.bank = ? and not m.archived ", MOST_IMPORTANT, maxBytes, store(),
                bank.bankId(), limit(limit), 0);
    }

    @Override
    default Paged<Memory> ofType(String type, int limit, long maxBytes) {
        return bounded("where m.store_id = ? and m.type = ? and not m.archived ", MOST_IMPORTANT, maxBytes, store(),
                type, limit(limit), 0);
    }

    @Override
    default List<Memory> inBank(Bank bank, int limit) {
        return sql().list(SELECT + "where m.store_id = ? and m.bank = ? and not m.archived order by " + MOST_IMPORTANT
                + " limit ?", MemoryRecords::read, store(), bank.bankId(), limit(limit));
    }

    @Override
    default List<Memory> top(Bank bank, int n, boolean includeArchived, boolean includeStale) {
        return sql().list(SELECT + "where m.store_id = ? and m.bank = ? " + (includeArchived ? ""
                : "and not m.archived ") + (includeStale ? "" : "and m.valid_to is null and m.superseded_by = '' ")
                + "order by " + MOST_IMPORTANT + " limit ?", MemoryRecords::read, store(), bank.bankId(),
                n <= 0 ? Entrypoint.DEFAULT_TOP_N : Math.min(n, MAX_LIMIT));
    }

    @Override
    default List<Memory> ofType(String type, int limit) {
        return sql().list(SELECT + "where m.store_id = ? and m.type = ? and not m.archived order by " + MOST_IMPORTANT
                + " limit ?", MemoryRecords::read, store(), type, limit(limit));
    }

    @Override
    default List<Memory> active(Bank bank) {
        return sql().connected(tx -> active(tx, bank));
    }

    /** The bank's active memories (neither archived nor stale) of type fact or observation, oldest first. */
    default List<Memory> active(Sql.Tx tx, Bank bank) throws SQLException {
        return tx.list(SELECT + "where m.store_id = ? and m.bank = ? and not m.archived and m.valid_to is null "
                + "and m.superseded_by = '' and m.type in ('fact', 'observation') order by m.created_at, m.id",
                MemoryRecords::read, store(), bank.bankId());
    }

    /**
     * The memories {@code where} (its parameters {@code args}, then the limit and the offset) selects in
     * {@code order}, ending before the one whose content would take theirs over {@code maxBytes}: PostgreSQL sums
     * the contents' sizes over the page, so only the page and the memory after it are read.
     */
    default Paged<Memory> bounded(String where, String order, long maxBytes, Object... args) {
        String query = "select * from (select q.*, coalesce(sum(octet_length(q.content)) over (order by q.position "
                + "rows between unbounded preceding and 1 preceding), 0) as bytes_before, row_number() over (order by "
                + "q.position) as n from (select " + MemoryRecords.COLUMNS + ", row_number() over (order by " + order
                + ") as position" + FROM + where + "order by " + order + " limit ? offset ?) q) q "
                + "where q.bytes_before <= ? or q.n <= 2 order by q.n";
        Object[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = maxBytes;
        List<Memory> rows = sql().list(query, MemoryRecords::read, all);
        return Paged.of(rows, rows.size(), maxBytes, Memory::bytes);
    }

    private long count() {
        return sql().connected(tx -> tx.one("select count(*) from memory where store_id = ?", r -> r.getLong(1),
                store()));
    }

    private static int limit(int limit) {
        return limit <= 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
    }
}
