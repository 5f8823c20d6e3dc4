package dev.engram.contexts;

import dev.engram.contexts.cache.CachedResult;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link ContextStore} in maps, for tests and a single process: one lock for every store, so a change is atomic and
 * changes are serial; a change works on copies and keeps them only when it lands. It refuses what the PostgreSQL
 * store refuses ({@link ContextRules}) and replays keys as it does; keys never expire here. Each landed change takes
 * the store's next seq and is kept as a {@link Journaled} record.
 */
public final class InMemoryContexts implements ContextStore {

    /** A change as journaled: its seq in the store, kind, and members (the context's id first). */
    public record Journaled(long seq, String kind, Map<String, Object> record) {

        public Journaled {
            record = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(record));
        }
    }

    private record Kept(Held held, KeptToolResults results) {
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
                contexts.put(id, new Kept(done.after(), results));
            }
            List<Journaled> journal = journals.computeIfAbsent(store, s -> new java.util.ArrayList<>());
            journal.add(new Journaled(journal.size() + 1, done.kind(), record));
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
