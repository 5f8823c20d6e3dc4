package dev.engram.memories.persistence;

import dev.engram.memories.rank.Indexed;
import dev.engram.memories.rank.RecallIndex;
import dev.engram.persistence.Sql;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Each store's {@link RecallIndex}, held by this replica and kept exactly as the database has it: before each search
 * it reads the changes numbered above the last it saw (migration V13: memories saved or changed, vectors written,
 * memories deleted), usually none, in one statement. A store is read whole, in pages, at its first search, when it
 * was not searched for {@link #RELOAD_AFTER} (deletions are kept only an hour), and when more than
 * {@link #MOST_CHANGES} changes wait; stores least recently searched are dropped when the indexes hold more than the
 * configured number of memories.
 */
final class PgRecallIndexes {

    private static final Logger LOG = Logger.getLogger(PgRecallIndexes.class);
    static final Duration RELOAD_AFTER = Duration.ofMinutes(30);

    private static final String MEMORY = "m.id, m.bank, m.type, m.archived, "
            + "(m.valid_to is not null or m.superseded_by <> ''), m.importance, m.confidence, m.created_at, m.made, "
            + "m.haystack, m.change, v.change, v.model, v.vector";
    /** Every change of a store above a number, in one snapshot: the three parts see the same commits. */
    private static final String CHANGES = "select false, " + MEMORY + " from memory m left join memory_vector v "
            + "on v.store_id = m.store_id and v.id = m.id where m.store_id = ? and m.change > ? "
            + "union all select false, " + MEMORY + " from memory_vector v join memory m on m.store_id = v.store_id "
            + "and m.id = v.id where v.store_id = ? and v.change > ? and ? >= 0 "
            + "union all select true, g.id, null, null, null, null, null, null, null, null, null, g.change, null, "
            + "null, null from memory_gone g where g.store_id = ? and g.change > ? and ? >= 0";

    private final Sql sql;
    private final int maxMemories;
    private final Map<String, Held> held = new LinkedHashMap<>(16, 0.75f, true);

    /** One store's index, the last change number it has seen (−1: none yet) and when it last looked. */
    private static final class Held {
        final RecallIndex index = new RecallIndex();
        long seen = -1;
        long lookedAt;
    }

    PgRecallIndexes(DataSource dataSource, int maxMemories) {
        this.sql = Raced.sql(dataSource, 0);
        this.maxMemories = maxMemories;
    }

    /** The store's index with every change committed before this call. */
    RecallIndex current(String store) {
        Held h;
        synchronized (held) {
            h = held.computeIfAbsent(store, s -> new Held());
        }
        synchronized (h) {
            long now = System.nanoTime();
            boolean whole = h.seen < 0 || now - h.lookedAt > RELOAD_AFTER.toNanos()
                    || !sql.transaction(tx -> {
                        tx.rollbackOnly();
                        return readChanges(tx, store, h);
                    });
            if (whole) {
                h.index.clear();
                h.seen = -1;
                sql.transaction(tx -> {
                    tx.rollbackOnly();
                    readWhole(tx, store, h);
                    return h;
                });
            }
            h.lookedAt = now;
        }
        evict(store);
        return h.index;
    }

    /**
     * The highest change number of the store's memories, vectors and deletions: three index lookups. A store whose
     * highest is the one last seen has no change to read.
     */
    private static final String LATEST = "select greatest((select max(change) from memory where store_id = ?), "
            + "(select max(change) from memory_vector where store_id = ?), "
            + "(select max(change) from memory_gone where store_id = ?))";

    /**
     * A page of a store's memories read whole, after the id last read: the memory's primary key in order, each page
     * one short statement within the statement timeout whatever the store's size (a million memories read in one
     * statement took longer than the 5 s a statement may take, and the store could then not be searched at all).
     */
    private static final String PAGE = "select false, " + MEMORY + " from memory m left join memory_vector v "
            + "on v.store_id = m.store_id and v.id = m.id where m.store_id = ? and m.id > ? order by m.id limit ?";
    /** Memories read in one statement of a whole read. */
    static final int PAGE_SIZE = 5000;

    /** Changes read in one statement at most; more, and the store is read whole again, in pages. */
    static final int MOST_CHANGES = 20_000;

    /** A change of the store's index: a memory put, or one gone; numbered as the database numbered it. */
    private record Change(long number, boolean gone, Indexed memory, String id) {

        static Change read(ResultSet r) throws SQLException {
            long number = Math.max(r.getLong(12), r.getLong(13));
            if (r.getBoolean(1)) {
                return new Change(number, true, null, r.getString(2));
            }
            byte[] bytes = r.getBytes(15);
            return new Change(number, false, new Indexed(r.getString(2), r.getString(3), r.getString(4),
                    r.getBoolean(5), r.getBoolean(6), r.getDouble(7), r.getDouble(8),
                    r.getObject(9, java.time.OffsetDateTime.class).toInstant(), r.getLong(10), r.getString(11),
                    r.getString(14), bytes == null ? null : floats(bytes)), null);
        }
    }

    /**
     * Every memory of the store, a page at a time, in one snapshot (REPEATABLE READ, the transaction's first
     * statement), so the pages and the highest change number read agree with each other as one statement would.
     */
    private void readWhole(Sql.Tx tx, String store, Held h) throws SQLException {
        long started = System.nanoTime();
        tx.update("set transaction isolation level repeatable read, read only");
        long seen = -1;
        String after = "";
        while (true) {
            List<Change> page = tx.list(PAGE, Change::read, store, after, PAGE_SIZE);
            for (Change ch : page) {
                h.index.put(ch.memory());
                seen = Math.max(seen, ch.number());
            }
            if (page.size() < PAGE_SIZE) {
                break;
            }
            after = page.get(page.size() - 1).memory().id();
        }
        h.seen = seen;
        long ms = (System.nanoTime() - started) / 1_000_000;
        if (ms >= 100 || h.index.size() >= 1000) {
            LOG.infof("Recall index of store %s read: %d memories in %d ms", store, h.index.size(), ms);
        }
    }

    /**
     * The changes since the last read, applied in their order; false, with nothing applied, when there are more than
     * {@link #MOST_CHANGES} (an import, a clear), which the store's whole read takes in pages instead of one
     * statement that could run past the statement timeout.
     */
    private boolean readChanges(Sql.Tx tx, String store, Held h) throws SQLException {
        if (tx.one(LATEST, r -> r.getLong(1), store, store, store) <= h.seen) {
            return true;
        }
        // A plan made for the numbers given: a generic one guesses that a third of the rows lie above any number,
        // and reads the tables whole (a quarter of a second at 100,000 memories) for the few changes there are.
        tx.update("set local plan_cache_mode = force_custom_plan");
        // at most one change past the bound is read: its being there is what sends the store to a whole read
        List<Change> changes = new ArrayList<>(tx.list(CHANGES + " limit ?", Change::read, store, h.seen, store,
                h.seen, h.seen, store, h.seen, h.seen, MOST_CHANGES + 1));
        if (changes.size() > MOST_CHANGES) {
            return false;
        }
        long seen = changes.stream().mapToLong(Change::number).reduce(h.seen, Math::max);
        changes.sort(java.util.Comparator.comparingLong(Change::number));
        for (Change ch : changes) {
            if (ch.gone()) {
                h.index.remove(ch.id());
            } else {
                h.index.put(ch.memory());
            }
        }
        h.seen = seen;
        return true;
    }

    /** Drops the least recently searched indexes (not {@code keep}) while they hold more than the bound. */
    private void evict(String keep) {
        synchronized (held) {
            long total = held.values().stream().mapToLong(x -> x.index.size()).sum();
            Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
            while (total > maxMemories && it.hasNext()) {
                Map.Entry<String, Held> e = it.next();
                if (!e.getKey().equals(keep)) {
                    total -= e.getValue().index.size();
                    it.remove();
                }
            }
        }
    }

    /** The floats of a stored vector (4 bytes each, big-endian, as float4send writes them). */
    static float[] floats(byte[] bytes) {
        float[] v = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /** The bytes a vector is stored as. */
    static byte[] bytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.BIG_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }
}
