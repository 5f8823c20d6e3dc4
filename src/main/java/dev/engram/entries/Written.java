package dev.engram.entries;

/**
 * What a write answers: the record it {@link Landed}, or, under an {@link dev.engram.kernel.IdempotencyKey} an
 * earlier write already used with the same request, that write {@link Replayed} with nothing written. A caller tells
 * the two apart so that it answers a replay without counting a second write.
 */
public sealed interface Written permits Landed, Replayed {

    /** The journal record to answer with: appended now, or the first write's as the journal holds it. */
    Change change();

    /** Whether this write appended nothing and answers an earlier one. */
    default boolean replayed() {
        return this instanceof Replayed;
    }
}
