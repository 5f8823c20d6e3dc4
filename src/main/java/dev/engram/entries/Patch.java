package dev.engram.entries;

import dev.engram.kernel.Conflict;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * An edit anchored in the stored text: replace exactly one occurrence of {@code oldText} with {@code newText}.
 * Applied with {@link PutOptions#ifVersion} on the state it read and retried on a conflict, so two sessions patching
 * one entry keep both edits (and its meta, which a concurrent write may have changed), and an edit whose anchor
 * another session removed fails out loud.
 */
public record Patch(String oldText, String newText) {

    /** How long {@link #applyTo} keeps retrying after conflicts before it gives up. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);
    /** The longest pause between two tries, in milliseconds; each pause is random, up to a bound that doubles. */
    static final long MAX_PAUSE_MILLIS = 64;

    public Patch {
        if (oldText == null || oldText.isEmpty()) {
            throw new Invalid("patch-old-text", "old_text", "old_text is empty; give the exact text to replace, "
                    + "copied from the entry, long enough to occur once.");
        }
        if (newText == null) {
            throw new Invalid("patch-new-text", "new_text", "new_text is missing; give the replacement text, "
                    + "or \"\" to delete old_text.");
        }
    }

    /** The content with the one occurrence of {@code oldText} replaced; {@link Invalid} when there is not one. */
    public String apply(Scope scope, String name, String content) {
        int at = content.indexOf(oldText);
        if (at < 0) {
            throw new Invalid("patch-anchor-missing", "old_text", "old_text does not occur in " + scope + "/"
                    + name + ". Read the entry and copy the text to replace exactly.");
        }
        int again = content.indexOf(oldText, at + 1);
        if (again >= 0) {
            int count = 2;
            for (int i = content.indexOf(oldText, again + 1); i >= 0; i = content.indexOf(oldText, i + 1)) {
                count++;
            }
            throw new Invalid("patch-anchor-ambiguous", "old_text", "old_text occurs " + count + " times in "
                    + scope + "/" + name + ". Include more of the surrounding text so that it occurs once.");
        }
        return content.substring(0, at) + newText + content.substring(at + oldText.length());
    }

    /**
     * Reads the entry, applies the patch and writes it conditional on the version read; after a conflict, pauses a
     * random while (longer after each) and does it again, until it lands or {@code deadline} has passed, when it
     * throws {@link Conflict#contended}. With a precondition already in {@code options} it tries once.
     */
    public Written applyTo(Store store, Scope scope, String name, PutOptions options, Duration deadline) {
        return applyTo(store, scope, name, options, deadline,
                draft -> options.idempotency().map(IdempotencyKey::reply).orElse(""));
    }

    /**
     * As {@link #applyTo(Store, Scope, String, PutOptions, Duration)}, recording {@code reply} of the entry about to
     * be written with the idempotency key of {@code options}. A patch under a key already used is {@link Replayed}
     * before the entry is read, since the patched entry would no longer take the patch; and so is one that fails
     * because a concurrent request under the same key landed between the check and the read.
     */
    public Written applyTo(Store store, Scope scope, String name, PutOptions options, Duration deadline,
            Function<Entry, String> reply) {
        Optional<IdempotencyKey> key = options.idempotency();
        Optional<Replay> seen = key.flatMap(store::replay);
        if (seen.isPresent()) {
            return new Replayed(seen.get());
        }
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            Entry draft;
            String version;
            try {
                Entry current = store.get(scope, name);
                if (options.conditional()) {
                    options.check(scope, name, current);
                }
                draft = Entry.draft(scope, name, apply(scope, name, current.content()), current.meta());
                version = current.version();
            } catch (NotFound | Invalid | Conflict refused) {
                Optional<Replay> landed = key.flatMap(store::replay);
                if (landed.isPresent()) {
                    return new Replayed(landed.get());
                }
                throw refused;
            }
            PutOptions write = options.ifVersion(version);
            if (key.isPresent()) {
                write = write.idempotent(key.get().reply(reply.apply(draft)));
            }
            try {
                return store.put(draft, write);
            } catch (Conflict c) {
                long elapsed = System.nanoTime() - start;
                if (options.conditional()) {
                    throw c;
                }
                if (elapsed >= deadline.toNanos() || !pause(attempt)) {
                    throw Conflict.contended(scope, name, c.want(), c.have(), attempt, elapsed / 1_000_000);
                }
            }
        }
    }

    /** Sleeps up to 2^attempt ms (at most {@link #MAX_PAUSE_MILLIS}), at random; false when interrupted. */
    private static boolean pause(int attempt) {
        long bound = Math.min(MAX_PAUSE_MILLIS, 1L << Math.min(attempt, 20));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(bound + 1));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
