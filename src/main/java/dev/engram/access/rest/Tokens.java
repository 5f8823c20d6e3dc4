package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Cache;
import dev.engram.access.ApiKeys;
import dev.engram.access.Caller;
import dev.engram.access.ConsoleSessions;
import dev.engram.access.Keys;
import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Who a bearer token is: the operator key, an API key, or a JWT from the identity provider. A token found is kept
 * for {@code engram.auth.cache-ttl} (at most a second), so a request costs one SHA-256 and one cache read, and a key
 * revoked on any replica is refused everywhere within that time. The cache holds at most
 * {@code engram.auth.cache-size} tokens and never a token that was refused, so a flood of bad tokens grows nothing;
 * a token that has neither a key's nor a JWT's form is refused without a look-up.
 */
@ApplicationScoped
public class Tokens {

    /** The longest a replica trusts a key it looked up. */
    static final Duration MAX_TTL = Duration.ofSeconds(1);

    private final Keys keys;
    private final OperatorKey operator;
    private final JwtVerifier jwt;
    private final Cache<String, Known> known;

    Tokens(Keys keys, OperatorKey operator, JwtVerifier jwt, EngramConfig config) {
        this.keys = keys;
        this.operator = operator;
        this.jwt = jwt;
        Duration ttl = config.auth().cacheTtl().compareTo(MAX_TTL) > 0 ? MAX_TTL : config.auth().cacheTtl();
        this.known = Caches.keptByTheirCallers().expireAfterWrite(ttl).maximumSize(config.auth().cacheSize()).build();
    }

    /** A caller known without a look-up: the operator, or a token found within the cache's time; else empty. */
    public Optional<Caller> known(String token) {
        return knownByHash(ApiKeys.hash(token));
    }

    /** As {@link #known}, by the token's hash ({@link ApiKeys#hash}): what a console session keeps of its key. */
    public Optional<Caller> knownByHash(String hash) {
        if (operator.matches(hash)) {
            return Optional.of(Caller.operator());
        }
        Known k = known.getIfPresent(hash);
        return k == null || k.until().isBefore(Instant.now()) ? Optional.empty() : Optional.of(k.caller());
    }

    /** Whether {@code token} could be a key or a JWT this replica takes, and so is worth {@link #resolve}. */
    public boolean worthLookingUp(String token) {
        return ApiKeys.hasKeyForm(token) || (jwt.enabled() && JwtVerifier.hasJwtForm(token));
    }

    /** Who {@code token} is, looked up in the database or verified, and kept when found. Blocks. */
    public Optional<Caller> resolve(String token) {
        Optional<Caller> fast = known(token);
        if (fast.isPresent()) {
            return fast;
        }
        String hash = ApiKeys.hash(token);
        if (ApiKeys.hasKeyForm(token)) {
            return keys.findLive(hash).map(k -> keep(hash, new Known(k.caller(), Instant.MAX)));
        }
        return jwt.verify(token).map(v -> keep(hash, new Known(v.caller(), v.expires())));
    }

    /**
     * The operator, or the live key whose secret hashes to {@code hash}, looked up in the database when not known,
     * and kept; empty when no live key has it. Blocks. A console session opened with a key is that key this way on
     * each request, so a revoked key ends its sessions as it ends its requests.
     */
    public Optional<Caller> resolveByHash(String hash) {
        Optional<Caller> fast = knownByHash(hash);
        if (fast.isPresent()) {
            return fast;
        }
        return keys.findLive(hash).map(k -> keep(hash, new Known(k.caller(), Instant.MAX)));
    }

    /**
     * What a console session signed in with {@code token} is opened with, ending {@code ttl} from now at the latest:
     * the operator key's or a live key's hash, or the caller a valid JWT names (and the token's expiry, if sooner);
     * empty when the token is none of them. Blocks.
     */
    public Optional<ConsoleSessions.Opening> opening(String token, Duration ttl) {
        String hash = ApiKeys.hash(token);
        Instant until = Instant.now().plus(ttl);
        if (operator.matches(hash)) {
            return Optional.of(new ConsoleSessions.Opening(Optional.of(hash), Caller.operator(), until));
        }
        if (ApiKeys.hasKeyForm(token)) {
            return keys.findLive(hash).map(k -> new ConsoleSessions.Opening(Optional.of(hash), k.caller(), until));
        }
        if (jwt.enabled() && JwtVerifier.hasJwtForm(token)) {
            return jwt.verify(token).map(v -> new ConsoleSessions.Opening(Optional.empty(), v.caller(),
                    v.expires().isBefore(until) ? v.expires() : until));
        }
        return Optional.empty();
    }

    /** Forgets the key {@code id} at once on this replica; the others forget it within the cache's time. */
    public void forget(String id) {
        known.asMap().values().removeIf(k -> k.caller().id().equals(id));
    }

    private Caller keep(String hash, Known k) {
        known.put(hash, k);
        return k.caller();
    }

    /** A caller found, and until when its token is good (a JWT's expiry; a key's is its revocation). */
    private record Known(Caller caller, Instant until) {
    }
}
