package dev.engram.kernel;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code Idempotency-Key} a write was sent with: a write made under a key is made at most once. A retry with the
 * same caller, key and request writes nothing and is answered with what the first write answered
 * ({@link Replayed}); the same key with another request is {@link KeyReused}. A refused write records no key, so a
 * retry after fixing the request is a new attempt.
 *
 * @param caller who sent the key, "" until authentication names callers; keys of two callers never meet
 * @param key 1 to {@link #MAX_LENGTH} visible ASCII characters, chosen by the caller
 * @param fingerprint what identifies the request the key came with (its method, path and body), as a hash
 * @param reply what the first request answered besides its journal record, such as a tool's text for the model,
 *     kept for a retry; "" for none
 */
public record IdempotencyKey(String caller, String key, String fingerprint, String reply) {

    /** The most characters a key may have. */
    public static final int MAX_LENGTH = 255;
    /** The header a key comes in, and the field a refusal names. */
    public static final String HEADER = "Idempotency-Key";
    /** How long a store keeps a key when its configuration names no other time. */
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

    public IdempotencyKey {
        caller = caller == null ? "" : caller;
        check(key);
        Objects.requireNonNull(fingerprint, "fingerprint");
        reply = reply == null ? "" : reply;
    }

    /** A key with no reply recorded beside the journal record. */
    public static IdempotencyKey of(String caller, String key, String fingerprint) {
        return new IdempotencyKey(caller, key, fingerprint, "");
    }

    /** This key, recording {@code text} as the reply a retry gets. */
    public IdempotencyKey reply(String text) {
        return new IdempotencyKey(caller, key, fingerprint, text);
    }

    /** Whether {@code other} is the same key of the same caller, whatever request it came with. */
    public boolean sameKey(IdempotencyKey other) {
        return caller.equals(other.caller) && key.equals(other.key);
    }

    /** Refuses a key that is not 1 to {@link #MAX_LENGTH} visible ASCII characters. */
    public static void check(String key) {
        boolean visibleAscii = key != null && key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (key == null || key.isEmpty() || key.length() > MAX_LENGTH || !visibleAscii) {
            throw new Invalid("idempotency-key-format", HEADER, HEADER + " must be 1 to " + MAX_LENGTH
                    + " visible ASCII characters with no spaces, such as a UUID; send a new one for each new write "
                    + "and the same one when you retry it.");
        }
    }
}
