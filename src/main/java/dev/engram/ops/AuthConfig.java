package dev.engram.ops;

import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** Authentication: the key cache, JWTs from an identity provider, and the operator's endpoints under {@code /q}. */
public interface AuthConfig {

    /**
     * How long a replica trusts a key it looked up before it looks again: a key revoked on another replica is
     * refused here within this time. At most one second.
     */
    @WithDefault("500ms")
    Duration cacheTtl();

    /** The most keys and tokens a replica keeps looked up; tokens that are no key are never kept. */
    @WithDefault("10000")
    int cacheSize();

    /**
     * Whether {@code /q/metrics}, {@code /q/openapi}, {@code /q/swagger-ui} and the rest of {@code /q} answer
     * without a token. Off: they answer only the operator. {@code /q/health} is always open.
     */
    @WithDefault("false")
    boolean openOpsEndpoints();

    /** JWTs from an identity provider; off unless a public key or its location is set. */
    Jwt jwt();

    interface Jwt {
        /** The issuer ({@code iss}) a token must name; required when JWTs are on. */
        Optional<String> issuer();

        /** The public key tokens are signed with: PEM, a JWK or a JWK set, inline. */
        Optional<String> publicKey();

        /** Where that key is: a file path, or an http(s) URL of a JWK set (refreshed as the provider rotates keys). */
        Optional<String> publicKeyLocation();

        /** The audiences ({@code aud}) a token may name, one of which it must; unset, any. */
        Optional<Set<String>> audience();

        /** The claim that carries a token's grants: an array of grants as the keys API takes them. */
        @WithDefault("engram_grants")
        String grantsClaim();

        /**
         * The longest a token may be valid, {@code exp} minus {@code iat} (a token without {@code iat} is refused).
         * A longer-lived token is refused, as a JWT cannot be revoked before it expires.
         */
        @WithDefault("24h")
        Duration maxLifetime();

        /**
         * How far the provider's clock may differ from this replica's: a token whose {@code iat} or {@code nbf} is
         * further ahead, or whose {@code exp} is further past, is refused.
         */
        @WithDefault("60s")
        Duration clockSkew();
    }
}
