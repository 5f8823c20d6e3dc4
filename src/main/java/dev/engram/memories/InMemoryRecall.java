package dev.engram.memories;

import dev.engram.memories.rank.QueryTokens;
import dev.engram.memories.rank.Relevance;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.memories.rank.Embedder;
import dev.engram.memories.rank.Indexed;
import dev.engram.memories.rank.Ranking;
import dev.engram.memories.rank.RecallIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Memories in a map, for tests and as the reference the PostgreSQL store is checked against: the same rules, the
 * same orders, the same scores. Synchronised, since it is small and its callers are tests.
 */
public final class InMemoryRecall implements Recall {

    static final Comparator<Memory> NEWEST = Comparator.comparing(Memory::createdAt).reversed()
            .thenComparing(Memory::id);
    static final Comparator<Memory> MOST_IMPORTANT = Comparator.comparingDouble(Memory::importance).reversed()
            .thenComparing(Comparator.comparing(Memory::createdAt).reversed()).thenComparing(Memory::id);

    private final Map<String, Memory> memories = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> slots = new LinkedHashMap<>();
    private final Map<String, BankSettings> settings = new LinkedHashMap<>();
    private final Map<String, MentalModel> models = new LinkedHashMap<>();
    private final Clock clock;
    private final RankedSearch ranked;
    /** When each memory was first saved here, for its neighbours. */
    private final Map<String, Long> made = new LinkedHashMap<>();
    private final Map<String, float[]> vectors = new LinkedHashMap<>();
    private long saves;

    public InMemoryRecall(Clock clock) {
        this(clock, Embedder.NONE);
    }

    /** A store whose hybrid searches embed with {@code embedder} (each content once, at its first search). */
    public InMemoryRecall(Clock clock, Embedder embedder) {
        this.clock = clock;
        this.ranked = new RankedSearch(embedder);
    }

    @Override
    public synchronized Memory save(Memory memory) {
        Instant now = clock.instant();
        Memory m = memory.saved(now);
        MemoryRules.check(m, now);
        Memory old = memories.get(m.id());
        if (old != null) {
            m = m.replacing(old);
        }
        memories.put(m.id(), m);
        made.putIfAbsent(m.id(), ++saves);
        return m;
    }

    /** What a save (or a batch, all its memories) under a key answered, and the request it came with. */
    private record Keyed(String fingerprint, List<Memory> first, String reply) {
    }

    @Override
    public synchronized List<Memory> saveAll(List<Memory> batch) {
        Instant now = clock.instant();
        MemoryRules.checkBatch(batch, now);
        List<Memory> stored = new ArrayList<>(batch.size());
        for (Memory m : batch) {
            stored.add(save(m));
        }
        return stored;
    }

    @Override
    public synchronized Saved<List<Memory>> saveAll(List<Memory> batch, IdempotencyKey key) {
        String at = key.caller() + "/" + key.key();
        Keyed seen = keys.get(at);
        if (seen != null) {
            if (!seen.fingerprint().equals(key.fingerprint())) {
                throw new KeyReused(key.key());
            }
            return new Saved.Replayed<>(seen.first(), "");
        }
        List<Memory> saved = saveAll(batch);
        keys.put(at, new Keyed(key.fingerprint(), saved, key.reply()));
        return new Saved.Landed<>(saved);
    }

    private final Map<String, Keyed> keys = new LinkedHashMap<>();

    @Override
    public synchronized Saved<Memory> save(Memory memory, IdempotencyKey key) {
        String at = key.caller() + "/" + key.key();
        Keyed seen = keys.get(at);
        if (seen != null) {
            if (!seen.fingerprint().equals(key.fingerprint())) {
                throw new KeyReused(key.key());
            }
            return new Saved.Replayed<>(seen.first().get(0), seen.reply());
        }
        Memory saved = save(memory);
        keys.put(at, new Keyed(key.fingerprint(), List.of(saved), key.reply()));
        return new Saved.Landed<>(saved);
    }

    @Override
    public synchronized Memory get(String id) {
        Memory m = memories.get(id);
        if (m == null) {
            throw NotFound.memory(id);
        }
        return m;
    }

    @Override
    public synchronized void delete(String id) {
        made.remove(id);
        if (memories.remove(id) == null) {
            throw NotFound.memory(id);
        }
    }

    @Override
    public synchronized MemoryPage list(int limit, int offset) {
        List<Memory> all = memories.values().stream().sorted(NEWEST).toList();
        int from = Math.min(Math.max(0, offset), all.size());
        return new MemoryPage(all.subList(from, Math.min(all.size(), from + limit(limit))), all.size());
    }

    @Override
    public synchronized Paged<Memory> page(MemoryFilter filter, MemoryFilter.After after, int limit, long maxBytes) {
        List<Memory> from = memories.values().stream().filter(filter::admits)
                .filter(m -> after == null || after.precedes(m, filter.byImportance())).sorted(filter.order())
                .limit(limit(limit) + 1L).toList();
        return Paged.of(from, limit(limit), maxBytes, Memory::bytes);
    }

    @Override
    public synchronized List<BankSummary> banks(String after, int limit) {
        Map<String, long[]> counts = new TreeMap<>(Memory.BY_CODE_POINT);
        for (Memory m : memories.values()) {
            long[] c = counts.computeIfAbsent(m.bank().bankId(), b -> new long[3]);
            c[0]++;
            c[1] += m.archived() ? 1 : 0;
            c[2] += m.stale() ? 1 : 0;
        }
        slots.keySet().forEach(b -> counts.putIfAbsent(b, new long[3]));
        settings.keySet().forEach(b -> counts.putIfAbsent(b, new long[3]));
        String from = after == null ? "" : after;
        return counts.entrySet().stream().filter(e -> Memory.BY_CODE_POINT.compare(e.getKey(), from) > 0)
                .limit(Math.max(0, limit)).map(e -> new BankSummary(e.getKey(), e.getValue()[0], e.getValue()[1],
                        e.getValue()[2])).toList();
    }

    @Override
    public synchronized List<Memory> inBank(Bank bank, int limit) {
        return memories.values().stream().filter(m -> !m.archived() && m.bank().bankId().equals(bank.bankId()))
                .sorted(MOST_IMPORTANT).limit(limit(limit)).toList();
    }

    @Override
    public synchronized List<Memory> top(Bank bank, int n, boolean includeArchived, boolean includeStale) {
        return memories.values().stream().filter(m -> m.bank().bankId().equals(bank.bankId())
                && (includeArchived || !m.archived()) && (includeStale || !m.stale())).sorted(MOST_IMPORTANT)
                .limit(n <= 0 ? Entrypoint.DEFAULT_TOP_N : Math.min(n, MAX_LIMIT)).toList();
    }

    @Override
    public synchronized List<Memory> ofType(String type, int limit) {
        return memories.values().stream().filter(m -> !m.archived() && m.type().equals(type)).sorted(MOST_IMPORTANT)
                .limit(limit(limit)).toList();
    }

    @Override
    public synchronized List<Scored> search(SearchOptions options) {
        Ranking ranking = RankedSearch.ranking(options, bank -> Optional.ofNullable(settings.get(bank))
                .map(BankSettings::ranking));
        RecallQuery.check(options.query(), ranking);
        if (ranking == Ranking.SEED) {
            return seedSearch(options);
        }
        RecallIndex index = new RecallIndex();
        Embedder embedder = ranked.embedder();
        for (Memory m : memories.values()) {
            float[] v = embedder == Embedder.NONE ? null : vectors.computeIfAbsent(m.content(), c ->
                    Embedder.unit(embedder.embed(List.of(c)).get(0), embedder.dimensions()).orElse(null));
            index.put(new Indexed(m.id(), m.bank().bankId(), m.type(), m.archived(), m.stale(), m.importance(),
                    m.confidence(), m.createdAt(), made.getOrDefault(m.id(), 0L), m.haystack(), embedder.model(), v));
        }
        return ranked.search(index, options, ranking, clock.instant()).stream()
                .map(r -> new Scored(memories.get(r.id()), r.score(), options.explain() ? r.explain() : null))
                .toList();
    }

    private List<Scored> seedSearch(SearchOptions options) {
        List<String> tokens = QueryTokens.of(options.query());
        if (tokens.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        record Candidate(Memory memory, int matched) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (Memory m : memories.values()) {
            String haystack = m.haystack().toLowerCase(Locale.ROOT);
            int matched = (int) tokens.stream().filter(haystack::contains).count();
            if (matched > 0 && options.admits(m)) {
                candidates.add(new Candidate(m, matched));
            }
        }
        // As the reference: the 4 × top_k candidates that match the most tokens, then ordered by score.
        return candidates.stream()
                .sorted(Comparator.comparingInt((Candidate c) -> -c.matched()).thenComparing(c -> c.memory().id()))
                .limit(4L * options.topK())
                .map(c -> new Scored(c.memory(), Relevance.score(c.matched(), c.memory().importance(),
                        c.memory().createdAt(), now)))
                .filter(s -> s.score() >= options.minScore())
                .sorted(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.memory().id()))
                .limit(options.topK()).toList();
    }

    /** Memories here are embedded when a search first needs them: none waits. */
    @Override
    public synchronized EmbeddingStatus embeddingStatus() {
        Embedder e = ranked.embedder();
        long n = memories.size();
        return new EmbeddingStatus(e.model(), e.dimensions(), n, e == Embedder.NONE ? 0 : n, 0, null, null, null);
    }

    @Override
    public synchronized long clear() {
        long n = memories.size();
        memories.clear();
        made.clear();
        return n;
    }

    @Override
    public synchronized Memory access(String id) {
        return put(get(id).accessed(clock.instant()));
    }

    @Override
    public synchronized Memory revise(String id, String by, String summary) {
        return put(get(id).revised(new Revision(clock.instant(), by, summary)));
    }

    @Override
    public synchronized Memory supersede(String id, String by) {
        Memory m = get(id);
        if (!by.isEmpty() && !memories.containsKey(by)) {
            throw MemoryRules.supersededByNothing(id, by);
        }
        return put(m.superseded(by, clock.instant()));
    }

    @Override
    public synchronized List<Memory> active(Bank bank) {
        return memories.values().stream().filter(m -> m.active() && m.bank().bankId().equals(bank.bankId())
                && (m.type().equals("fact") || m.type().equals("observation")))
                .sorted(Comparator.comparing(Memory::createdAt).thenComparing(Memory::id)).toList();
    }

    @Override
    public synchronized List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan) {
        seen.changedIn(active(seen.bank()), plan).ifPresent(why -> {
            throw Reflection.bankChanged(why);
        });
        Instant now = clock.instant();
        List<Memory> saved = new ArrayList<>();
        for (Reflection.Planned p : plan) {
            MemoryRules.check(p.memory().saved(now), now);
        }
        for (Reflection.Planned p : plan) {
            Memory m = p.memory().saved(now);
            memories.put(m.id(), m);
            saved.add(m);
            if (!p.supersedes().isEmpty()) {
                put(get(p.supersedes()).superseded(m.id(), now));
            }
        }
        return saved;
    }

    @Override
    public synchronized Memory archive(String id, String reason) {
        return put(get(id).archive(reason, clock.instant()));
    }

    @Override
    public synchronized Memory unarchive(String id) {
        return put(get(id).unarchive(clock.instant()));
    }

    @Override
    public synchronized void setSlot(Bank bank, String slot, String text) {
        MemoryRules.checkSlot(slot);
        MemoryRules.checkText(text, "text");
        slots.computeIfAbsent(bank.bankId(), b -> new LinkedHashMap<>()).put(slot, text == null ? "" : text);
    }

    @Override
    public synchronized Optional<String> slot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        return Optional.ofNullable(slots.getOrDefault(bank.bankId(), Map.of()).get(slot));
    }

    @Override
    public synchronized String appendSlot(Bank bank, String slot, String text) {
        String whole = ContextSlots.append(slot(bank, slot).orElse(""), text == null ? "" : text);
        setSlot(bank, slot, whole);
        return whole;
    }

    @Override
    public synchronized void deleteSlot(Bank bank, String slot) {
        MemoryRules.checkSlot(slot);
        slots.getOrDefault(bank.bankId(), new LinkedHashMap<>()).remove(slot);
    }

    @Override
    public synchronized Map<String, String> slots(Bank bank) {
        return Map.copyOf(slots.getOrDefault(bank.bankId(), Map.of()));
    }

    @Override
    public synchronized BankSettings configure(Bank bank, BankSettings s) {
        MemoryRules.check(s);
        settings.put(bank.bankId(), s);
        return s;
    }

    @Override
    public synchronized BankSettings settings(Bank bank) {
        BankSettings s = settings.get(bank.bankId());
        if (s == null) {
            throw NotFound.bankSettings(bank.bankId());
        }
        return s;
    }

    @Override
    public synchronized MentalModel saveModel(MentalModel model) {
        MemoryRules.check(model);
        MentalModel m = new MentalModel(model.id(), model.name(), model.description(), model.content(),
                model.tags(), clock.instant());
        models.put(m.id(), m);
        return m;
    }

    @Override
    public synchronized MentalModel model(String id) {
        MentalModel m = models.get(id);
        if (m == null) {
            throw NotFound.mentalModel(id);
        }
        return m;
    }

    @Override
    public synchronized List<MentalModel> models() {
        return models.values().stream().sorted(Comparator.comparing(MentalModel::updatedAt).reversed()
                .thenComparing(MentalModel::id)).toList();
    }

    @Override
    public synchronized void deleteModel(String id) {
        models.remove(id);
    }

    private Memory put(Memory m) {
        memories.put(m.id(), m);
        return m;
    }

    private static int limit(int limit) {
        return limit <= 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
    }
}
