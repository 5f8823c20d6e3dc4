package dev.engram.contexts;

import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The contexts of every store, each kept with its tool-result cache and every change journaled. A change is an
 * {@link Edit}: the store runs it on the context as stored (under the store's lock, in one transaction for a store
 * that has them) and keeps what it answers, or nothing when it throws. Every implementation passes the conformance
 * suite ({@code ContextStoreContract}) and refuses what {@link ContextRules} refuses.
 */
public interface ContextStore {

    /** A context as stored: its configuration and what it holds. */
    record Held(ContextConfig config, ContextState state) {
    }

    /**
     * What an edit made: the context after it (null: deleted), the journal record's kind and members (the context's
     * id is added), and what to answer. A null kind means nothing changed: no seq is taken, no record written.
     */
    record Edited<T>(Held after, String kind, Map<String, Object> record, T answer) {

        /** Nothing changed; answer {@code answer}. */
        public static <T> Edited<T> unchanged(T answer) {
            return new Edited<>(null, null, Map.of(), answer);
        }

        /**
         * The change that leaves the context as {@code after}, journaled as {@code kind} with {@code record} and the
         * fill after it ({@value #FILL}: as {@link Context#checkFill} answers it, the memory block it shows counted).
         */
        public static <T> Edited<T> of(Context after, String kind, Map<String, Object> record, T answer) {
            Map<String, Object> members = new java.util.LinkedHashMap<>(record);
            members.put(FILL, after.checkFill());
            return new Edited<>(new Held(after.config(), after.state()), kind, members, answer);
        }
    }

    /** The member of a change's record that holds the fill after it ({@link Edited#of}). */
    String FILL = "fill";

    /** One change of a context: from what is stored (empty when there is no such context) and its cache. */
    @FunctionalInterface
    interface Edit<T> {
        Edited<T> apply(Optional<Held> current, ToolResultCache cache);
    }

    /**
     * A change made at most once under {@code key}: {@code reply} renders its answer as a retry is to get it, recorded
     * with the key.
     */
    record Once<T>(IdempotencyKey key, Function<T, String> reply) {
    }

    /** Context {@code id} of {@code store}, or {@link NotFound}. */
    Held get(String store, String id);

    /**
     * The memory block's settings of context {@code id} of {@code store}, read alone (no lock, not the state), so that
     * a change can render the block before its transaction; {@link ContextConfig.Memory#NONE} when there is no such
     * context or it shows no block.
     */
    ContextConfig.Memory memory(String store, String id);

    /**
     * Runs {@code edit} on context {@code id} of {@code store} under the store's lock and journals it, at most once
     * under the key of {@code once}, if any: a key that changed before with the same request is
     * {@link ContextWrite.Replayed} before anything else is read, with nothing written; with another request it is
     * {@link KeyReused}. A change that changes nothing still records its key. A refused change (whatever the edit
     * throws, {@link Limited} over {@link ContextRules#MAX_STEPS}, {@link Invalid} for a NUL in the record) writes
     * nothing and records no key.
     */
    <T> ContextWrite<T> change(String store, String id, Optional<Once<T>> once, Edit<T> edit);

    /** As {@link #change(String, String, Optional, Edit)} without a key: never replayed, so its answer. */
    default <T> T change(String store, String id, Edit<T> edit) {
        return change(store, id, Optional.<Once<T>>empty(), edit).landed();
    }

    /**
     * As {@link #change(String, String, Optional, Edit)} for an edit that only appends steps: it must keep the steps it
     * is given, first and unchanged (the same objects), and never read them (a store may hand it stand-ins), so the
     * cost of an append need not grow with the context. An edit that changes them is an {@link IllegalStateException}.
     */
    <T> ContextWrite<T> append(String store, String id, Optional<Once<T>> once, Edit<T> edit);

    /** As {@link #append(String, String, Optional, Edit)} without a key: its answer. */
    default <T> T append(String store, String id, Edit<T> edit) {
        return append(store, id, Optional.<Once<T>>empty(), edit).landed();
    }

    /**
     * Replaces the answer recorded under the key of {@code once} with {@code answer}, as {@code once} renders it: a
     * request that recorded its key with a change and then did more (an append that compacted and built the prompt)
     * records what it answered in the end, for a retry to get. Nothing changes when the key is not recorded (it
     * expired) or was recorded for another request.
     */
    <T> void answered(String store, Once<T> once, T answer);

    /**
     * The cached tool result {@code hash} (short, full or a unique prefix) names in context {@code id}; empty when none
     * does or the prefix names several; {@link NotFound} when there is no such context.
     */
    Optional<CachedResult> toolResult(String store, String id, String hash);

    // ------------------------------------------------------------------------------------------ reads for a reader

    /**
     * The contexts of {@code store} by id after {@code after} ("" for the first), at most {@code limit}, without their
     * steps: what a listing shows. A store without contexts, or none, has none.
     */
    Paged<ContextOutline> list(String store, String after, int limit);

    /** Context {@code id} of {@code store} without its steps, or {@link NotFound}. */
    ContextOutline outline(String store, String id);

    /**
     * At most {@code limit} steps of context {@code id} of {@code store} from index {@code from} on (none past its
     * last), without reading the others; {@link NotFound} when there is no such context.
     */
    List<Step> steps(String store, String id, int from, int limit);

    /**
     * The changes of context {@code id} of {@code store} as its journal records tell them, newest first: those of a
     * kind in {@code kinds} (every kind when empty) with a seq below {@code before}, at most {@code limit}. Only the
     * records of the context that holds the id now, or held it last: the records before its id's last
     * {@code context.deleted} belong to another context and are never among them.
     */
    Paged<ContextChange> changes(String store, String id, Set<String> kinds, long before, int limit);

    /**
     * The tool results cached in context {@code id} of {@code store}, by short hash after {@code after} ("" for the
     * first), at most {@code limit}, without their content; {@link NotFound} when there is no such context.
     */
    Paged<ListedResult> toolResults(String store, String id, String after, int limit);
}
