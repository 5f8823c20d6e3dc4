package dev.engram.recall;

import dev.engram.memory.Invalid;
import dev.engram.memory.NotFound;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
    private final Clock clock;

    public InMemoryRecall(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Memory save(Memory memory) {
        Instant now = clock.instant();
        Memory m = memory.saved(now);
        MemoryRules.check(m, now);
        Memory old = memories.get(m.id());
        if (old != null) {
            m = new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                    m.source(), m.confidence(), m.evidence(), m.validFrom(), m.validTo(), m.supersededBy(),
                    m.conflicting(), m.archived(), m.archivedAt(), m.archiveReason(), old.accessCount(),
                    old.lastAccessed(), old.createdAt(), m.updatedAt(), m.revisions());
        }
        memories.put(m.id(), m);
        return m;
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
    public synchronized List<Memory> inBank(Bank bank, int limit) {
        return memories.values().stream().filter(m -> !m.archived() && m.bank().bankId().equals(bank.bankId()))
                .sorted(MOST_IMPORTANT).limit(limit(limit)).toList();
    }

    @Override
    public synchronized List<Memory> ofType(String type, int limit) {
        return memories.values().stream().filter(m -> !m.archived() && m.type().equals(type)).sorted(MOST_IMPORTANT)
                .limit(limit(limit)).toList();
    }

    @Override
    public synchronized List<Scored> search(SearchOptions options) {
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

    @Override
    public synchronized long clear() {
        long n = memories.size();
        memories.clear();
        return n;
    }

    @Override
    public synchronized Memory access(String id) {
        Memory m = get(id);
        return put(new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), m.validFrom(), m.validTo(), m.supersededBy(),
                m.conflicting(), m.archived(), m.archivedAt(), m.archiveReason(), m.accessCount() + 1, clock.instant(),
                m.createdAt(), m.updatedAt(), m.revisions()));
    }

    @Override
    public synchronized Memory revise(String id, String by, String summary) {
        Memory m = get(id);
        List<Revision> revisions = new ArrayList<>(m.revisions());
        revisions.add(new Revision(clock.instant(), by, summary));
        return put(m.withRevisions(revisions));
    }

    @Override
    public synchronized Memory supersede(String id, String by) {
        Memory m = get(id);
        if (!by.isEmpty() && !memories.containsKey(by)) {
            throw new Invalid("superseded-by-unknown", "by", "There is no memory " + by + " in this store to "
                    + "supersede " + id + "; save the new memory first, then supersede the old one by its id.");
        }
        Instant now = clock.instant();
        List<Revision> revisions = new ArrayList<>(m.revisions());
        revisions.add(new Revision(now, "reflect", "superseded by " + by));
        return put(new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), m.validFrom(), now, by, m.conflicting(), m.archived(),
                m.archivedAt(), m.archiveReason(), m.accessCount(), m.lastAccessed(), m.createdAt(), now, revisions));
    }

    @Override
    public synchronized Memory archive(String id, String reason) {
        Memory m = get(id);
        Instant now = clock.instant();
        List<Revision> revisions = new ArrayList<>(m.revisions());
        revisions.add(new Revision(now, "archive", reason));
        return put(new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), m.validFrom(), m.validTo(), m.supersededBy(),
                m.conflicting(), true, now, reason, m.accessCount(), m.lastAccessed(), m.createdAt(), now, revisions));
    }

    @Override
    public synchronized Memory unarchive(String id) {
        Memory m = get(id);
        return put(new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), m.validFrom(), m.validTo(), m.supersededBy(),
                m.conflicting(), false, null, "", m.accessCount(), m.lastAccessed(), m.createdAt(), clock.instant(),
                m.revisions()));
    }

    private Memory put(Memory m) {
        memories.put(m.id(), m);
        return m;
    }

    private static int limit(int limit) {
        return limit <= 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT);
    }
}
