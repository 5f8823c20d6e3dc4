package dev.engram.memories.persistence;

import dev.engram.journal.persistence.JournalNotes;
import dev.engram.entries.persistence.KeySeen;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.memories.Bank;
import dev.engram.memories.BankSettings;
import dev.engram.memories.ContextSlots;
import dev.engram.memories.Entrypoint;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryPage;
import dev.engram.memories.MemoryReplayed;
import dev.engram.memories.MemoriesReplayed;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.MentalModel;
import dev.engram.memories.rank.QueryTokens;
import dev.engram.memories.Recall;
import dev.engram.memories.Reflection;
import dev.engram.memories.EmbeddingStatus;
import dev.engram.memories.RankedSearch;
import dev.engram.memories.rank.Embedder;
import dev.engram.memories.RecallQuery;
import dev.engram.memories.rank.Relevance;
import dev.engram.memories.rank.Ranked;
import dev.engram.memories.rank.Ranking;
import dev.engram.memories.Revision;
import dev.engram.memories.Scored;
import dev.engram.memories.SearchOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One store's memories in PostgreSQL. Every change runs in one transaction that first takes the store's next seq
 * (the row lock every write of the store takes, entries' included, so records are in commit order), then changes the
 * memory and appends its journal record; a refused change rolls back whole. Reads and access counts take no lock.
 */
final class PgRecall implements Recall {

    private static final String FROM = " from memory m left join memory_access a on a.store_id = m.store_id "
            + "and a.id = m.id ";
    private static final String GET = "select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.id = ?";
    private final String store;
    private final PgRecalls recalls;

    PgRecall(String store, PgRecalls recalls) {
        this.store = store;
        this.recalls = recalls;
    }

    @Override
    public Memory save(Memory memory) {
        return save(memory, Optional.empty());
    }

    @Override
    public Memory save(Memory memory, IdempotencyKey key) {
        return save(memory, Optional.of(key));
    }

    /**
     * Saves that read without a lock before one that reads under the store's lock, which no other change of the
     * store can come between (but the store's very first writes, which create its row).
     */
    private static final int OPTIMISTIC = 2;

    /**
     * A save: one statement in autocommit, or, under a key or after {@link #OPTIMISTIC} lost races, a transaction
     * that first takes the key's lock (answering the first save under it) or the store's lock.
     */
    private Memory save(Memory memory, Optional<IdempotencyKey> key) {
        Instant now = now();
        Memory m = inMicros(memory.saved(now));
        MemoryRules.check(m, now);
        boolean madeId = memory.id().isEmpty();
        for (int attempt = 1; ; attempt++) {
            boolean locked = attempt > OPTIMISTIC;
            try (Connection c = recalls.dataSource().getConnection()) {
                Saved saved;
                if (key.isEmpty() && !locked) {
                    saved = saveOnce(c, m, now, madeId && attempt == 1);
                } else {
                    c.setAutoCommit(false);
                    try {
                        Optional<MemoryReplayed> first = key.isEmpty() ? Optional.empty() : firstUnder(c, key.get());
                        if (first.isPresent()) {
                            throw first.get();
                        }
                        if (locked) {
                            lockStore(c);
                        }
                        saved = saveOnce(c, m, now, madeId && attempt == 1);
                        if (key.isPresent()) {
                            exec(c, "insert into idempotency (store_id, caller, key, fingerprint, seq, reply) "
                                    + "values (?, ?, ?, ?, ?, ?)", store, key.get().caller(), key.get().key(),
                                    key.get().fingerprint(), saved.seq(), key.get().reply());
                        }
                        c.commit();
                    } catch (SQLException | RuntimeException e) {
                        c.rollback();
                        throw e;
                    }
                }
                recalls.appended(store, saved.seq());
                recalls.queued();
                return saved.memory();
            } catch (SQLException e) {
                if ("EG422".equals(e.getSQLState()) && key.isPresent()) {
                    throw new KeyReused(key.get().key());
                }
                if (!raced(e, attempt)) {
                    throw saveRefusal(e);
                }
            }
        }
    }

    @Override
    public List<Memory> saveAll(List<Memory> batch) {
        return saveAll(batch, Optional.empty());
    }

    @Override
    public List<Memory> saveAll(List<Memory> batch, IdempotencyKey key) {
        return saveAll(batch, Optional.of(key));
    }

    /**
     * A batch: one transaction that takes the key's lock (answering the first batch under it), then the store's lock,
     * then saves each memory as {@link #saveOnce} does, each its journal record, their seqs consecutive (no other
     * change of the store comes between); a refusal of any rolls back all. The key records the first seq and, as its
     * reply, how many memories the batch saved, which is what a retry reads back.
     */
    private List<Memory> saveAll(List<Memory> batch, Optional<IdempotencyKey> key) {
        Instant now = now();
        List<Memory> filled = MemoryRules.checkBatch(batch, now).stream().map(PgRecall::inMicros).toList();
        for (int attempt = 1; ; attempt++) {
            try (Connection c = recalls.dataSource().getConnection()) {
                List<Saved> saved = new ArrayList<>(filled.size());
                c.setAutoCommit(false);
                try {
                    Optional<KeySeen> seen = key.isEmpty() ? Optional.empty() : KeySeen.lock(c, store, key.get());
                    if (seen.isPresent()) {
                        throw new MemoriesReplayed(firstBatch(c, seen.get()));
                    }
                    lockStore(c);
                    for (int i = 0; i < filled.size(); i++) {
                        saved.add(saveOnce(c, filled.get(i), now, batch.get(i).id().isEmpty() && attempt == 1));
                    }
                    if (key.isPresent()) {
                        exec(c, "insert into idempotency (store_id, caller, key, fingerprint, seq, reply) "
                                + "values (?, ?, ?, ?, ?, ?)", store, key.get().caller(), key.get().key(),
                                key.get().fingerprint(), saved.get(0).seq(), BATCH_REPLY + saved.size());
                    }
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                }
                recalls.appended(store, saved.get(saved.size() - 1).seq());
                recalls.queued();
                return saved.stream().map(Saved::memory).toList();
            } catch (SQLException e) {
                if ("EG422".equals(e.getSQLState()) && key.isPresent()) {
                    throw new KeyReused(key.get().key());
                }
                if (!raced(e, attempt)) {
                    throw saveRefusal(e);
                }
            }
        }
    }

    /** What a key's reply says of a batch: this, then how many memories it saved from the key's seq on. */
    private static final String BATCH_REPLY = "memories.batch:";

    /** The memories the first batch under a key saved, from their journal records (the key's seq and on). */
    private List<Memory> firstBatch(Connection c, KeySeen seen) throws SQLException {
        int n = seen.reply().startsWith(BATCH_REPLY) ? Integer.parseInt(seen.reply().substring(BATCH_REPLY.length()))
                : 1;
        List<Memory> first = new ArrayList<>(n);
        try (PreparedStatement s = c.prepareStatement("select record::text from journal where store_id = ? "
                + "and seq >= ? and seq < ? order by seq")) {
            s.setString(1, store);
            s.setLong(2, seen.seq());
            s.setLong(3, seen.seq() + n);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    first.add(MemoryRecords.fromJson(r.getString(1)));
                }
            }
        }
        return first;
    }

    /** A memory as one save stored it, and the seq of its record. */
    private record Saved(Memory memory, long seq) {
    }

    /**
     * Saves {@code m} with one call of {@code engram_memory_save} (migration V10), after reading what it replaces
     * without a lock (not when {@code fresh}: an id just made names nothing yet): the record is built from that read,
     * and the call refuses (EG409) when the row changed since.
     */
    private Saved saveOnce(Connection c, Memory m, Instant now, boolean fresh) throws SQLException {
        Optional<Memory> old = fresh ? Optional.empty() : read(c, m.id());
        Memory stored = old.map(m::replacing).orElse(m);
        try (PreparedStatement s = c.prepareStatement("select engram_memory_save(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?)")) {
            int i = 1;
            s.setString(i++, store);
            s.setInt(i++, recalls.defaultMaxEntryBytes());
            s.setInt(i++, recalls.maxMemories());
            s.setString(i++, m.id());
            s.setString(i++, m.bank().bankId());
            s.setString(i++, m.bank().type());
            s.setString(i++, m.bank().id());
            s.setString(i++, m.type());
            s.setString(i++, m.content());
            s.setDouble(i++, m.importance());
            s.setDouble(i++, m.confidence());
            s.setArray(i++, c.createArrayOf("text", m.tags().toArray()));
            s.setArray(i++, c.createArrayOf("text", m.keywords().toArray()));
            s.setArray(i++, c.createArrayOf("text", m.evidence().toArray()));
            s.setString(i++, m.source());
            setTime(s, i++, m.validFrom());
            setTime(s, i++, m.validTo());
            s.setString(i++, m.supersededBy());
            s.setBoolean(i++, m.conflicting());
            s.setBoolean(i++, m.archived());
            setTime(s, i++, m.archivedAt());
            s.setString(i++, m.archiveReason());
            s.setString(i++, MemoryRecords.revisionsJson(m.revisions()));
            setTime(s, i++, m.createdAt());
            setTime(s, i++, m.updatedAt());
            s.setString(i++, m.haystack().toLowerCase(Locale.ROOT));
            setTime(s, i++, old.map(Memory::createdAt).orElse(null));
            s.setString(i++, MemoryRecords.json(stored));
            setTime(s, i, now);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return new Saved(stored, r.getLong(1));
            }
        }
    }

    /** Whether a save lost a race with another change of its memory (EG409) and may read and try again. */
    private static boolean raced(SQLException e, int attempt) {
        return "EG409".equals(e.getSQLState()) && attempt < 10;
    }

    /** What a failed save call means: the store's quota reached (EG429), or the database failing. */
    private RuntimeException saveRefusal(SQLException e) {
        return "EG429".equals(e.getSQLState()) ? quotaReached(recalls.maxMemories()) : new StoreUnavailable(e);
    }

    private static Limited quotaReached(int max) {
        return new Limited(Limited.Kind.QUOTA, "memories-per-store", max, 0, "This store holds " + max
                + " memories, its most. Delete memories it no longer needs, or ask the operator for a larger "
                + "engram.limits.memories-per-store. Saving over an existing memory still works.");
    }

    /** Now, to the microsecond PostgreSQL keeps, so that what a save answers is what a read will. */
    private Instant now() {
        return recalls.clock().instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code m} with its times to the microsecond, as PostgreSQL will keep them. */
    private static Memory inMicros(Memory m) {
        return new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), micros(m.validFrom()), micros(m.validTo()),
                m.supersededBy(), m.conflicting(), m.archived(), micros(m.archivedAt()), m.archiveReason(),
                m.accessCount(), micros(m.lastAccessed()), micros(m.createdAt()), micros(m.updatedAt()),
                m.revisions());
    }

    private static Instant micros(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * What the first save under {@code key} answered, read from its journal record, after taking the key's
     * lock (so a retry racing the first waits for it); EG422 when the key came with another request.
     */
    private Optional<MemoryReplayed> firstUnder(Connection c, IdempotencyKey key) throws SQLException {
        Optional<KeySeen> seen = KeySeen.lock(c, store, key);
        if (seen.isEmpty()) {
            return Optional.empty();
        }
        long seq = seen.get().seq();
        String reply = seen.get().reply();
        // A statement of its own: one that began before the key's lock was granted would not see the record that
        // the save holding the lock committed meanwhile.
        try (PreparedStatement s = c.prepareStatement("select record::text from journal where store_id = ? "
                + "and seq = ?")) {
            s.setString(1, store);
            s.setLong(2, seq);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return Optional.of(new MemoryReplayed(MemoryRecords.fromJson(r.getString(1)), reply));
            }
        }
    }

    @Override
    public Memory get(String id) {
        try (Connection c = recalls.dataSource().getConnection()) {
            return read(c, id).orElseThrow(() -> NotFound.memory(id));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public void delete(String id) {
        change("memory.deleted", id, c -> {
            Memory gone = read(c, id).orElseThrow(() -> NotFound.memory(id));
            update(c, "delete from memory where store_id = ? and id = ?", id);
            update(c, "update store set memories = memories - 1 where id = ?", null);
            return new Changed(gone, MemoryRecords.JSON.createObjectNode().put("id", id).toString());
        });
    }

    private static final String NEWEST = "m.created_at desc, m.id";
    private static final String MOST_IMPORTANT = "m.importance desc, m.created_at desc, m.id";

    @Override
    public MemoryPage list(int limit, int offset) {
        List<Memory> page = query("select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? "
                + "order by " + NEWEST + " limit ? offset ?", limit(limit), Math.max(0, offset));
        return new MemoryPage(page, count());
    }

    @Override
    public MemoryPage list(int limit, int offset, long maxBytes) {
        Paged<Memory> page = bounded("where m.store_id = ? ", NEWEST, maxBytes, limit(limit), Math.max(0, offset));
        return new MemoryPage(page.items(), count(), page.more());
    }

    @Override
    public Paged<Memory> inBank(Bank bank, int limit, long maxBytes) {
        return bounded("where m.store_id = ? and m.bank = ? and not m.archived ", MOST_IMPORTANT, maxBytes,
                bank.bankId(), limit(limit), 0);
    }

    @Override
    public Paged<Memory> ofType(String type, int limit, long maxBytes) {
        return bounded("where m.store_id = ? and m.type = ? and not m.archived ", MOST_IMPORTANT, maxBytes, type,
                limit(limit), 0);
    }

    /**
     * The memories {@code where} (its parameters {@code args}, then the limit and the offset) selects in
     * {@code order}, ending before the one whose content would take theirs over {@code maxBytes}: PostgreSQL sums
     * the contents' sizes over the page, so only the page and the memory after it are read.
     */
    private Paged<Memory> bounded(String where, String order, long maxBytes, Object... args) {
        String sql = "select * from (select q.*, coalesce(sum(octet_length(q.content)) over (order by q.position "
                + "rows between unbounded preceding and 1 preceding), 0) as bytes_before, row_number() over (order by "
                + "q.position) as n from (select " + MemoryRecords.COLUMNS + ", row_number() over (order by " + order
                + ") as position" + FROM + where + "order by " + order + " limit ? offset ?) q) q "
                + "where q.bytes_before <= ? or q.n <= 2 order by q.n";
        Object[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = maxBytes;
        List<Memory> rows = query(sql, all);
        return Paged.of(rows, rows.size(), maxBytes, Memory::bytes);
    }

    private long count() {
        try (Connection c = recalls.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement("select count(*) from memory where store_id = ?")) {
            s.setString(1, store);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public List<Memory> inBank(Bank bank, int limit) {
        return query("select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.bank = ? "
                + "and not m.archived order by m.importance desc, m.created_at desc, m.id limit ?", bank.bankId(),
                limit(limit));
    }

    @Override
    public List<Memory> top(Bank bank, int n, boolean includeArchived, boolean includeStale) {
        return query("select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.bank = ? "
                + (includeArchived ? "" : "and not m.archived ")
                + (includeStale ? "" : "and m.valid_to is null and m.superseded_by = '' ")
                + "order by m.importance desc, m.created_at desc, m.id limit ?", bank.bankId(),
                n <= 0 ? Entrypoint.DEFAULT_TOP_N : Math.min(n, MAX_LIMIT));
    }

    @Override
    public List<Memory> ofType(String type, int limit) {
        return query("select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.type = ? "
                + "and not m.archived order by m.importance desc, m.created_at desc, m.id limit ?", type, limit(limit));
    }

    @Override
    public List<Scored> search(SearchOptions options) {
        Ranking ranking = RankedSearch.ranking(options, this::bankRanking);
        RecallQuery.check(options.query(), ranking);
        if (ranking == Ranking.SEED) {
            return seedSearch(options);
        }
        PgRecalls.Ranker ranker = recalls.ranker();
        List<Ranked> ranked = ranker.search().search(ranker.indexes().current(store), options, ranking,
                recalls.clock().instant());
        if (ranked.isEmpty()) {
            return List.of();
        }
        Map<String, Memory> found = new HashMap<>();
        for (Memory m : query("select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.id = any(?)",
                (Object) ranked.stream().map(Ranked::id).toArray(String[]::new))) {
            found.put(m.id(), m);
        }
        List<Scored> results = new ArrayList<>();
        for (Ranked r : ranked) {
            Memory m = found.get(r.id());
            if (m != null) {
                results.add(new Scored(m, r.score(), options.explain() ? r.explain() : null));
            }
        }
        return results;
    }

    /** The ranking bank {@code bank} is set to, if any. */
    private Optional<Ranking> bankRanking(String bank) {
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "select ranking from bank_settings where store_id = ? and bank = ?")) {
            s.setString(1, store);
            s.setString(2, bank);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getString(1) != null ? Optional.of(Ranking.parse(r.getString(1), "ranking"))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /** The seed's search: the memories holding the most query tokens, scored by {@link Relevance}. */
    private List<Scored> seedSearch(SearchOptions options) {
        List<String> tokens = QueryTokens.of(options.query());
        if (tokens.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>();
        StringBuilder matched = new StringBuilder();
        StringBuilder any = new StringBuilder();
        for (String t : tokens) {
            String like = "%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
            matched.append(matched.length() == 0 ? "" : " + ").append("(m.haystack like ?)::int");
            any.append(any.length() == 0 ? "" : " or ").append("m.haystack like ?");
            args.add(like);
        }
        List<Object> all = new ArrayList<>(args);
        all.add(store);
        all.addAll(args);
        StringBuilder sql = new StringBuilder("select " + MemoryRecords.COLUMNS + ", " + matched + " as matched"
                + FROM + "where (m.store_id || '') = ? and (" + any + ")");
        if (!options.includeArchived()) {
            sql.append(" and not m.archived");
        }
        if (!options.includeStale()) {
            sql.append(" and m.valid_to is null and m.superseded_by = ''");
        }
        if (!options.type().isEmpty()) {
            sql.append(" and m.type = ?");
            all.add(options.type());
        }
        if (!options.banks().isEmpty()) {
            sql.append(" and m.bank = any(?)");
            all.add(options.banks().toArray(String[]::new));
        }
        sql.append(" order by matched desc, m.id limit ?");
        all.add(4 * options.topK());
        Instant now = recalls.clock().instant();
        List<Scored> found = new ArrayList<>();
        try (Connection c = recalls.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql.toString())) {
            bind(c, s, all);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Memory m = MemoryRecords.read(r);
                    double score = Relevance.score(r.getInt("matched"), m.importance(), m.createdAt(), now);
                    if (score >= options.minScore()) {
                        found.add(new Scored(m, score));
                    }
                }
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
        found.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(x -> x.memory().id()));
        return found.subList(0, Math.min(found.size(), options.topK()));
    }

    @Override
    public EmbeddingStatus embeddingStatus() {
        Embedder e = recalls.ranker().search().embedder();
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "select (select count(*) from memory where store_id = ?), "
                        + "(select count(*) from memory_vector where store_id = ? and model = ?), "
                        + "(select count(*) from embed_queue where store_id = ?), "
                        + "(select percentile_disc(array[0.5, 0.99, 1.0]) within group (order by "
                        + "extract(epoch from v.embedded_at - m.updated_at) * 1000) from memory_vector v join memory m "
                        + "on m.store_id = v.store_id and m.id = v.id where v.store_id = ? "
                        + "and v.embedded_at > now() - interval '10 minutes' and v.embedded_at >= m.updated_at)")) {
            s.setString(1, store);
            s.setString(2, store);
            s.setString(3, e.model());
            s.setString(4, store);
            s.setString(5, store);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                java.sql.Array lag = r.getArray(4);
                Object[] ms = lag == null ? null : (Object[]) lag.getArray();
                return new EmbeddingStatus(e.model(), e.dimensions(), r.getLong(1), r.getLong(2), r.getLong(3),
                        ms == null ? null : ((Number) ms[0]).doubleValue(), ms == null ? null
                                : ((Number) ms[1]).doubleValue(), ms == null ? null : ((Number) ms[2]).doubleValue());
            }
        } catch (SQLException x) {
            throw new StoreUnavailable(x);
        }
    }

    @Override
    public long clear() {
        long[] n = {0};
        try {
            change("memories.cleared", "", c -> {
                n[0] = update(c, "delete from memory where store_id = ?", null);
                if (n[0] == 0) {
                    throw new NothingChanged();
                }
                update(c, "update store set memories = 0 where id = ?", null);
                return new Changed(null, MemoryRecords.JSON.createObjectNode().put("count", n[0]).toString());
            });
        } catch (NothingChanged none) {
            return 0;
        }
        return n[0];
    }

    @Override
    public Memory access(String id) {
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "insert into memory_access as a (store_id, id, count, last_accessed) select m.store_id, m.id, 1, ? "
                        + "from memory m where m.store_id = ? and m.id = ? on conflict (store_id, id) do update "
                        + "set count = a.count + 1, last_accessed = excluded.last_accessed")) {
            setTime(s, 1, recalls.clock().instant());
            s.setString(2, store);
            s.setString(3, id);
            if (s.executeUpdate() == 0) {
                throw NotFound.memory(id);
            }
            return read(c, id).orElseThrow(() -> NotFound.memory(id));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public Memory revise(String id, String by, String summary) {
        return rewrite("memory.revised", id, m -> m.revised(new Revision(recalls.clock().instant(), by, summary)));
    }

    @Override
    public Memory supersede(String id, String by) {
        return change("memory.superseded", id, c -> {
            Memory m = read(c, id).orElseThrow(() -> NotFound.memory(id));
            if (!by.isEmpty() && read(c, by).isEmpty()) {
                throw MemoryRules.supersededByNothing(id, by);
            }
            return Changed.of(rewrite(c, m.superseded(by, recalls.clock().instant())));
        }).memory();
    }

    @Override
    public Memory archive(String id, String reason) {
        return rewrite("memory.archived", id, m -> m.archive(reason, recalls.clock().instant()));
    }

    @Override
    public Memory unarchive(String id) {
        return rewrite("memory.unarchived", id, m -> m.unarchive(recalls.clock().instant()));
    }

    @Override
    public List<Memory> active(Bank bank) {
        try (Connection c = recalls.dataSource().getConnection()) {
            return active(c, bank);
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private List<Memory> active(Connection c, Bank bank) throws SQLException {
        return query(c, "select " + MemoryRecords.COLUMNS + FROM + "where m.store_id = ? and m.bank = ? "
                + "and not m.archived and m.valid_to is null and m.superseded_by = '' "
                + "and m.type in ('fact', 'observation') order by m.created_at, m.id", store, bank.bankId());
    }

    @Override
    public List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan) {
        List<Memory> saved = new ArrayList<>();
        long seq = 0;
        try (Connection c = recalls.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try {
                lockStore(c);
                Optional<String> changed = seen.changedIn(active(c, seen.bank()), plan);
                if (changed.isPresent()) {
                    throw Reflection.bankChanged(changed.get());
                }
                Instant now = now();
                for (Reflection.Planned p : plan) {
                    Memory m = inMicros(p.memory().saved(now));
                    MemoryRules.check(m, now);
                    Saved observation = saveOnce(c, m, now, true);
                    seq = observation.seq();
                    saved.add(observation.memory());
                    if (!p.supersedes().isEmpty()) {
                        seq = nextSeq(c);
                        Memory old = read(c, p.supersedes()).orElseThrow(() -> NotFound.memory(p.supersedes()));
                        Memory stale = rewrite(c, old.superseded(m.id(), now));
                        appendNote(c, seq, "memory.superseded", stale.id(), MemoryRecords.json(stale));
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw saveRefusal(e);
        }
        recalls.appended(store, seq);
        recalls.queued();
        return saved;
    }

    /** Takes the store's row lock, as a seq does, without taking a seq: a store with no row has no memories. */
    private void lockStore(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select 1 from store where id = ? for update")) {
            s.setString(1, store);
            s.executeQuery().close();
        }
    }

    /** Reads the memory, changes it with {@code how} and writes it back, journaled as {@code kind}. */
    private Memory rewrite(String kind, String id, UnaryOperator<Memory> how) {
        return change(kind, id, c -> Changed.of(rewrite(c, how.apply(read(c, id)
                .orElseThrow(() -> NotFound.memory(id)))))).memory();
    }

    // ----------------------------------------------------------------------------- slots, settings, mental models

    @Override
    public void setSlot(Bank bank, String slot, String text) {
        MemoryRules.checkSlot(slot);
        MemoryRules.checkText(text, "text");
        String t = text == null ? "" : text;
        change("slot.set", bank.bankId() + "/" + slot, c -> {
            exec(c, "insert into bank_slot (store_id, bank, slot, text) values (?, ?, ?, ?) on conflict "
                    + "(store_id, bank, slot) do update set text = excluded.text", store, bank.bankId(), slot, t);
            return new Changed(null, slotRecord(bank, slot).put("text", t).toString());
        });
    }

    @Override
    public Optional<String> slot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        return slots(bank, slot).values().stream().findFirst();
    }

    @Override
    public String appendSlot(Bank bank, String slot, String text) {
        MemoryRules.checkSlot(slot);
        String[] whole = {""};
        change("slot.set", bank.bankId() + "/" + slot, c -> {
            String current = "";
            try (PreparedStatement s = c.prepareStatement("select text from bank_slot where store_id = ? and bank = ? "
                    + "and slot = ? for update")) {
                s.setString(1, store);
                s.setString(2, bank.bankId());
                s.setString(3, slot);
                try (ResultSet r = s.executeQuery()) {
                    current = r.next() ? r.getString(1) : "";
                }
            }
            whole[0] = ContextSlots.append(current, text == null ? "" : text);
            MemoryRules.checkText(whole[0], "text");
            exec(c, "insert into bank_slot (store_id, bank, slot, text) values (?, ?, ?, ?) on conflict "
                    + "(store_id, bank, slot) do update set text = excluded.text", store, bank.bankId(), slot, whole[0]);
            return new Changed(null, slotRecord(bank, slot).put("text", whole[0]).toString());
        });
        return whole[0];
    }

    @Override
    public void deleteSlot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        unless0("slot.deleted", bank.bankId() + "/" + slot, c -> exec(c, "delete from bank_slot where store_id = ? "
                + "and bank = ? and slot = ?", store, bank.bankId(), slot), slotRecord(bank, slot).toString());
    }

    @Override
    public Map<String, String> slots(Bank bank) {
        return slots(bank, null);
    }

    private Map<String, String> slots(Bank bank, String only) {
        Map<String, String> found = new LinkedHashMap<>();
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "select slot, text from bank_slot where store_id = ? and bank = ? and (slot = ? or ?::text is null) "
                        + "order by slot")) {
            s.setString(1, store);
            s.setString(2, bank.bankId());
            s.setString(3, only);
            s.setString(4, only);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    found.put(r.getString(1), r.getString(2));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public BankSettings configure(Bank bank, BankSettings settings) {
        MemoryRules.check(settings);
        String directives = MemoryRecords.JSON.valueToTree(settings.directives()).toString();
        change("bank.configured", bank.bankId(), c -> {
            exec(c, "insert into bank_settings (store_id, bank, mission, directives, skepticism, literalism, empathy, "
                    + "ranking) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?) on conflict (store_id, bank) do update set "
                    + "mission = excluded.mission, directives = excluded.directives, skepticism = excluded.skepticism, "
                    + "literalism = excluded.literalism, empathy = excluded.empathy, ranking = excluded.ranking", store,
                    bank.bankId(), settings.mission(), directives, settings.skepticism(), settings.literalism(),
                    settings.empathy(), settings.ranking() == null ? null : settings.ranking().wire());
            var o = MemoryRecords.JSON.createObjectNode().put("bank", bank.bankId()).put("mission", settings.mission());
            o.set("directives", MemoryRecords.JSON.valueToTree(settings.directives()));
            o.put("skepticism", settings.skepticism()).put("literalism", settings.literalism())
                    .put("empathy", settings.empathy());
            if (settings.ranking() != null) {
                o.put("ranking", settings.ranking().wire());
            }
            return new Changed(null, o.toString());
        });
        return settings;
    }

    @Override
    public BankSettings settings(Bank bank) {
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "select mission, directives::text, skepticism, literalism, empathy, ranking from bank_settings "
                        + "where store_id = ? and bank = ?")) {
            s.setString(1, store);
            s.setString(2, bank.bankId());
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw NotFound.bankSettings(bank.bankId());
                }
                return new BankSettings(r.getString(1), List.of(MemoryRecords.JSON.readValue(r.getString(2),
                        String[].class)), r.getInt(3), r.getInt(4), r.getInt(5), r.getString(6) == null ? null
                        : dev.engram.memories.rank.Ranking.parse(r.getString(6), "ranking"));
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("A bank's directives are not the JSON Engram wrote", e);
        }
    }

    @Override
    public MentalModel saveModel(MentalModel model) {
        MemoryRules.check(model);
        MentalModel m = new MentalModel(model.id(), model.name(), model.description(), model.content(), model.tags(),
                recalls.clock().instant());
        change("mental_model.saved", m.id(), c -> {
            exec(c, "insert into mental_model (store_id, id, name, description, content, tags, updated_at) "
                    + "values (?, ?, ?, ?, ?, ?, ?) on conflict (store_id, id) do update set name = excluded.name, "
                    + "description = excluded.description, content = excluded.content, tags = excluded.tags, "
                    + "updated_at = excluded.updated_at", store, m.id(), m.name(), m.description(), m.content(),
                    m.tags().toArray(String[]::new), m.updatedAt());
            return new Changed(null, MemoryRecords.modelJson(m));
        });
        return model(m.id());
    }

    @Override
    public MentalModel model(String id) {
        return models(id).stream().findFirst().orElseThrow(() -> NotFound.mentalModel(id));
    }

    @Override
    public List<MentalModel> models() {
        return models(null);
    }

    private List<MentalModel> models(String only) {
        try (Connection c = recalls.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(
                "select id, name, description, content, tags, updated_at from mental_model where store_id = ? "
                        + "and (id = ? or ?::text is null) order by updated_at desc, id")) {
            s.setString(1, store);
            s.setString(2, only);
            s.setString(3, only);
            List<MentalModel> found = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    found.add(new MentalModel(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                            List.of((String[]) r.getArray(5).getArray()),
                            r.getObject(6, OffsetDateTime.class).toInstant()));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public void deleteModel(String id) {
        MemoryRules.checkId(id, "id");
        unless0("mental_model.deleted", id, c -> exec(c, "delete from mental_model where store_id = ? and id = ?",
                store, id), MemoryRecords.JSON.createObjectNode().put("id", id).toString());
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode slotRecord(Bank bank, String slot) {
        return MemoryRecords.JSON.createObjectNode().put("bank", bank.bankId()).put("slot", slot);
    }

    /** A deletion journaled as {@code kind} with {@code record}, or nothing at all when it deleted no row. */
    private void unless0(String kind, String key, Counted delete, String record) {
        try {
            change(kind, key, c -> {
                if (delete.apply(c) == 0) {
                    throw new NothingChanged();
                }
                return new Changed(null, record);
            });
        } catch (NothingChanged none) {
            // nothing to delete: no seq taken, no record written
        }
    }

    @FunctionalInterface
    private interface Counted {
        long apply(Connection c) throws SQLException;
    }

    private long exec(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            List<Object> all = new ArrayList<>();
            for (Object a : args) {
                all.add(a instanceof Instant t ? OffsetDateTime.ofInstant(t, ZoneOffset.UTC) : a);
            }
            bind(c, s, all);
            return s.executeUpdate();
        }
    }

    // ------------------------------------------------------------------------------------------------- the writing

    /** What a change did: the memory as it is after it (or was before a deletion), and its journal record. */
    private record Changed(Memory memory, String record) {

        static Changed of(Memory m) {
            return new Changed(m, MemoryRecords.json(m));
        }
    }

    /** A change of the store's memories, run inside {@link #change}. */
    @FunctionalInterface
    private interface Step {
        Changed apply(Connection c) throws SQLException;
    }

    /** A change that found nothing to change (a clear, a delete of a slot or model): no seq, no record. */
    private static final class NothingChanged extends RuntimeException {
        NothingChanged() {
            super(null, null, false, false);
        }
    }

    /**
     * Runs {@code step} in one transaction after taking the store's next seq, then appends the journal record of
     * {@code kind} for {@code key} that the step made. A step that throws rolls everything back.
     */
    private Changed change(String kind, String key, Step step) {
        long seq;
        Changed result;
        try (Connection c = recalls.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try {
                seq = nextSeq(c);
                result = step.apply(c);
                appendNote(c, seq, kind, key, result.record());
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
        recalls.appended(store, seq);
        return result;
    }

    private long nextSeq(Connection c) throws SQLException {
        return JournalNotes.nextSeq(c, store, recalls.defaultMaxEntryBytes());
    }

    private void appendNote(Connection c, long seq, String kind, String key, String body) throws SQLException {
        JournalNotes.append(c, store, seq, kind, key, body, recalls.clock().instant());
    }

    /** Writes {@code m}'s validity, archiving, revisions and update time over its row; answers it as stored. */
    private Memory rewrite(Connection c, Memory m) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("update memory set valid_to = ?, superseded_by = ?, "
                + "archived = ?, archived_at = ?, archive_reason = ?, revisions = ?::jsonb, updated_at = ? "
                + "where store_id = ? and id = ?")) {
            setTime(s, 1, m.validTo());
            s.setString(2, m.supersededBy());
            s.setBoolean(3, m.archived());
            setTime(s, 4, m.archivedAt());
            s.setString(5, m.archiveReason());
            s.setString(6, MemoryRecords.revisionsJson(m.revisions()));
            setTime(s, 7, m.updatedAt());
            s.setString(8, store);
            s.setString(9, m.id());
            s.executeUpdate();
        }
        return read(c, m.id()).orElseThrow();
    }


    // ------------------------------------------------------------------------------------------------ the reading

    private Optional<Memory> read(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(GET)) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(MemoryRecords.read(r)) : Optional.empty();
            }
        }
    }

    private List<Memory> query(String sql, Object... args) {
        List<Object> all = new ArrayList<>();
        all.add(store);
        all.addAll(List.of(args));
        try (Connection c = recalls.dataSource().getConnection()) {
            return query(c, sql, all.toArray());
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private static List<Memory> query(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(c, s, List.of(args));
            List<Memory> found = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    found.add(MemoryRecords.read(r));
                }
            }
            return found;
        }
    }

    private long update(Connection c, String sql, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, store);
            if (id != null) {
                s.setString(2, id);
            }
            return s.executeUpdate();
        }
    }

    private static void bind(Connection c, PreparedStatement s, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof String[] array) {
                s.setArray(i + 1, c.createArrayOf("text", array));
            } else {
                s.setObject(i + 1, a);
            }
        }
    }

    private static void setTime(PreparedStatement s, int i, Instant t) throws SQLException {
        if (t == null) {
            s.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            s.setObject(i, OffsetDateTime.ofInstant(t, ZoneOffset.UTC));
        }
    }

    private static int limit(int limit) {
        return limit <= 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
    }
}
