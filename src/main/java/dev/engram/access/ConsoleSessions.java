package dev.engram.access;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The console's sign-ins. A session is found by the secret token its browser holds in a cookie; the store keeps only
 * the token's hash. A session opened with a key ({@link Opening#keyHash}) is that key each time it is used, so a
 * revoked key ends it; one opened with a JWT carries the caller the token named until the token expires.
 */
public interface ConsoleSessions {

    /** Opens a session for {@code opening}; the token and the form token are in the result and nowhere else. */
    Opened open(Opening opening);

    /** The live session whose token is {@code token}, or empty (unknown, expired or closed). */
    Optional<Session> find(String token);

    /** Closes the session whose token is {@code token}; closing one that is not open does nothing. */
    void close(String token);

    /**
     * What a session is opened with: the hash of the key it was signed in with ({@link ApiKeys#hash}), or, for a
     * JWT, the caller it named (key hash empty); and when it ends at the latest.
     */
    record Opening(Optional<String> keyHash, Caller caller, Instant expires) {
    }

    /** A session just opened: the token for its cookie, the token its forms carry, when it ends. */
    record Opened(String token, String csrf, Instant expires) {
    }

    /**
     * A live session: the key hash it resolves its caller by each time, or the caller a JWT named ({@code grants}
     * then set); its form token; when it ends.
     */
    record Session(Optional<String> keyHash, String callerId, String callerName, List<Grant> grants, String csrf,
            Instant expires) {

        public Session {
            grants = grants == null ? List.of() : List.copyOf(grants);
        }

        /** The caller a JWT session carries; for a key's session, the key is looked up instead. */
        public Caller jwtCaller() {
            return new Caller(callerId, callerName, grants, false);
        }
    }
}
