package dev.engram.access;

import dev.engram.kernel.Paged;
import java.util.List;
import java.util.Optional;

/** The API keys of a service: issued with grants, found by the hash of their secret, revoked for good. */
public interface Keys {

    /** A new key with {@code name} and {@code grants}; the secret is in the result and nowhere else. */
    IssuedKey issue(String name, List<Grant> grants);

    /** Every live key, oldest first; no secrets, no hashes. */
    List<KeyRecord> list();

    /**
     * The live keys after key {@code after} ("" for the first) in the order of {@link #list}, at most {@code limit};
     * none after a key that never was.
     */
    Paged<KeyRecord> page(String after, int limit);

    /** Revokes key {@code id}; false when no live key has that id. */
    boolean revoke(String id);

    /** The live key whose secret hashes to {@code hash} ({@link ApiKeys#hash}), or empty. */
    Optional<KeyRecord> findLive(String hash);

    /** A key just issued and its secret, shown once. */
    record IssuedKey(KeyRecord key, String secret) {
    }
}
