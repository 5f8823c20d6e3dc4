package dev.engram.contexts;

import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link ContextStore} in maps, for tests and a single process: one lock for every store, so a change is atomic and
 * changes are serial; a change works on copies and keeps them only when it lands. It refuses what the PostgreSQL
 * store refuses ({@link ContextRules}) and replays keys as it does; keys never expire here. Each landed change takes
 * the store's next seq and is kept as a {@link Journaled} record.
 */
public final class InMemoryContexts implements ContextStore {

    /** A change as journaled: its seq in the store, kind, and members (the context's id first), and when. */
    public record Journaled(long seq, String kind, Map<String, Object> record, Instant at) {

        public Journaled {
            record = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(record));
            java.util.Objects.requireNonNull(at, "at");
        }
    }

    private record Kept(Held held, KeptToolResults results, Instant created, Instant updated) {
    }

    private record KeyOf(String store, String caller, String key) {
    }

    private record Recorded(String fingerprint, String reply) {
    }

    private final Map<String, Map<String, Kept>> stores = new HashMap<>();
    private final Map<KeyOf, Recorded> keys = new HashMap<>();
    private final Map<String, List<Journaled>> journals = new HashMap<>();

    @Override
    public synchronized Held get(String store, String id) {
        ContextRules.checkStore(store);
        return kept(store, id).map(Kept::held).orElseThrow(() -> NotFound.context(id));
    }

    @Override
    public synchronized ContextConfig.Memory memory(String store, String id) {
        ContextRules.checkStore(store);
        return kept(store, id).map(k -> k.held().config().memory()).orElse(ContextConfig.Memory.NONE);
    }

    @Override
    public synchronized <T> ContextWrite<T> change(String store, String id, Optional<Once<T>> once, Edit<T> edit) {
        ContextRules.checkStore(store);
        if (once.isPresent()) {
            Optional<String> first = first(store, once.get().key());
            if (first.isPresent()) {
                return new ContextWrite.Replayed<>(first.get());
            }
        }
        Optional<Kept> before = kept(store, id);
        KeptToolResults results = before.map(k -> k.results().copy()).orElseGet(KeptToolResults::new);
        Edited<T> done = edit.apply(before.map(Kept::held), results);
        if (done.kind() != null) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("id", id);
            record.putAll(done.record());
            ContextRules.checkRecord(record);
            Map<String, Kept> contexts = stores.computeIfAbsent(store, s -> new HashMap<>());
            if (done.after() == null) {
                contexts.remove(id);
            } else {
                ContextRules.checkSteps(id, done.after().state().steps().size());
                Instant now = Instant.now();
                contexts.put(id, new Kept(done.after(), results, before.map(Kept::created).orElse(now), now));
            }
            List<Journaled> journal = journals.computeIfAbsent(store, s -> new ArrayList<>());
            journal.add(new Journaled(journal.size() + 1, done.kind(), record, Instant.now()));
        }
        once.ifPresent(o -> keys.put(keyOf(store, o.key()),
                new Recorded(o.key().fingerprint(), o.reply().apply(done.answer()))));
        return new ContextWrite.Landed<>(done.answer());
    }

    @Override
    public synchronized <T> ContextWrite<T> append(String store, String id, Optional<Once<T>> once, Edit<T> edit) {
        return change(store, id, once, (current, cache) -> {
            Edited<T> done = edit.apply(current, cache);
            if (current.isPresent() && done.after() != null) {
                ContextRules.checkAppended(current.get().state().steps(), done.after().state().steps());
            }
            return done;
        });
    }

    @Override
    public synchronized <T> void answered(String store, Once<T> once, T answer) {
        ContextRules.checkStore(store);
        KeyOf key = keyOf(store, once.key());
        Recorded recorded = keys.get(key);
        if (recorded != null && recorded.fingerprint().equals(once.key().fingerprint())) {
            keys.put(key, new Recorded(recorded.fingerprint(), once.reply().apply(answer)));
        }
    }

    @Override
    public synchronized Optional<CachedResult> toolResult(String store, String id, String hash) {
        ContextRules.checkStore(store);
        return kept(store, id).orElseThrow(() -> NotFound.context(id)).results().get(hash);
    }

    @Override
    public synchronized Paged<ContextOutline> list(String store, String after, int limit) {
        ContextRules.checkStore(store);
        String from = after == null ? "" : after;
        List<ContextOutline> fetched = new TreeMap<>(stores.getOrDefault(store, Map.of())).entrySet().stream()
                .filter(e -> e.getKey().compareTo(from) > 0).limit(Math.max(0, limit) + 1L)
                .map(e -> outline(e.getKey(), e.getValue())).toList();
        return Paged.of(fetched, limit, Long.MAX_VALUE, o -> 0);
    }

    @Override
    public synchronized ContextOutline outline(String store, String id) {
        ContextRules.checkStore(store);
        return outline(id, kept(store, id).orElseThrow(() -> NotFound.context(id)));
    }

    @Override
    public synchronized List<Step> steps(String store, String id, int from, int limit) {
        ContextRules.checkStore(store);
        List<Step> steps = kept(store, id).orElseThrow(() -> NotFound.context(id)).held().state().steps();
        int start = Math.min(Math.max(0, from), steps.size());
        return List.copyOf(steps.subList(start, Math.min(steps.size(), start + Math.max(0, limit))));
    }

    @Override
    public synchronized Paged<ContextChange> changes(String store, String id, Set<String> kinds, long before,
            int limit) {
        ContextRules.checkStore(store);
        List<ContextChange> fetched = new ArrayList<>();
        List<Journaled> journal = journals.getOrDefault(store, List.of());
        for (int i = journal.size() - 1; i >= 0 && fetched.size() <= limit; i--) {
            Journaled j = journal.get(i);
            if (j.seq() >= before || !id.equals(j.record().get("id"))) {
                continue;
            }
            if (j.kind().equals(ContextChange.DELETED)) {
                break;
            }
            if (kinds.isEmpty() || kinds.contains(j.kind())) {
                fetched.add(ContextChange.of(j.seq(), j.kind(), j.at(), j.record()));
            }
        }
        return Paged.of(fetched, limit, Long.MAX_VALUE, c -> 0);
    }

    @Override
    public synchronized Paged<ListedResult> toolResults(String store, String id, String after, int limit) {
        ContextRules.checkStore(store);
        return kept(store, id).orElseThrow(() -> NotFound.context(id)).results().list(after, limit);
    }

    private static ContextOutline outline(String id, Kept k) {
        return ContextOutline.of(id, k.held().config(), k.held().state(), k.created(), k.updated());
    }

    /** The records of {@code store}'s changes, oldest first. */
    public synchronized List<Journaled> journal(String store) {
        return List.copyOf(journals.getOrDefault(store, List.of()));
    }

    /** The first answer under {@code key}; {@link KeyReused} when the key came with another request. */
    private Optional<String> first(String store, IdempotencyKey key) {
        Recorded recorded = keys.get(keyOf(store, key));
        if (recorded == null) {
            return Optional.empty();
        }
        if (!recorded.fingerprint().equals(key.fingerprint())) {
            throw new KeyReused(key.key());
        }
        return Optional.of(recorded.reply());
    }

    private Optional<Kept> kept(String store, String id) {
        return Optional.ofNullable(stores.getOrDefault(store, Map.of()).get(id));
    }

    private static KeyOf keyOf(String store, IdempotencyKey key) {
        return new KeyOf(store, key.caller(), key.key());
    }
}
