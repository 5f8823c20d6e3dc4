package dev.engram.access.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Grant;
import dev.engram.access.Role;
import dev.engram.kernel.Scope;
import dev.engram.ops.AuthConfig;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

/** The verifier on its own, with the public key inline as PEM: the settings that turn it on, and what it reads. */
class JwtVerifierTest {

    static final KeyPair PAIR = TestIdp.generate();

    record Settings(Optional<String> issuer, Optional<String> publicKey, Optional<String> publicKeyLocation,
            Optional<Set<String>> audience, String grantsClaim, Duration maxLifetime, Duration clockSkew)
            implements AuthConfig.Jwt {

        Settings(Optional<String> issuer, Optional<String> publicKey, Optional<String> publicKeyLocation,
                Optional<Set<String>> audience, String grantsClaim) {
            this(issuer, publicKey, publicKeyLocation, audience, grantsClaim, Duration.ofHours(24),
                    Duration.ofSeconds(60));
        }
    }

    static Settings pem(Optional<Set<String>> audience) {
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                PAIR.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        return new Settings(Optional.of(TestIdp.ISSUER), Optional.of(pem), Optional.empty(), audience,
                "engram_grants");
    }

    static String token(JwtClaims claims) {
        return TestIdp.sign(claims, PAIR.getPrivate(), "k");
    }

    static JwtClaims claims() {
        JwtClaims c = new JwtClaims();
        c.setIssuer(TestIdp.ISSUER);
        c.setSubject("agent-7");
        c.setClaim("preferred_username", "Agent Seven");
        c.setIssuedAtToNow();
        c.setExpirationTimeMinutesInTheFuture(5);
        c.setClaim("engram_grants", List.of(Map.of("stores", "acme-*", "role", "write", "scopes", List.of("user"),
                "read_scopes", List.of("rules"))));
        return c;
    }

    @Test
    void offWithoutAKeyAndThenEveryTokenIsRefused() {
        JwtVerifier off = new JwtVerifier(new Settings(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), "engram_grants"));
        assertFalse(off.enabled());
        assertTrue(off.verify(token(claims())).isEmpty());
    }

    @Test
    void aKeyWithoutAnIssuerIsRefusedAtStart() {
        Settings noIssuer = new Settings(Optional.empty(), pem(Optional.empty()).publicKey(), Optional.empty(),
                Optional.empty(), "engram_grants");
        assertThrows(IllegalStateException.class, () -> new JwtVerifier(noIssuer));
    }

    @Test
    void aValidTokenNamesItsCallerAndGrants() {
        var v = new JwtVerifier(pem(Optional.empty())).verify(token(claims())).orElseThrow();
        assertEquals("jwt:agent-7", v.caller().id());
        assertEquals("Agent Seven", v.caller().name());
        assertEquals(List.of(new Grant("acme-*", Role.WRITE, List.of(new Scope("user")), List.of(new Scope("rules")))),
                v.caller().grants());
        assertFalse(v.caller().isOperator());
    }

    @Test
    void theAudienceIsCheckedWhenConfigured() {
        JwtVerifier v = new JwtVerifier(pem(Optional.of(Set.of("engram"))));
        assertTrue(v.verify(token(claims())).isEmpty(), "no aud");
        JwtClaims right = claims();
        right.setAudience("engram");
        assertTrue(v.verify(token(right)).isPresent());
        JwtClaims wrong = claims();
        wrong.setAudience("another-service");
        assertTrue(v.verify(token(wrong)).isEmpty());
    }

    @Test
    void tokensInOtherFormsAreNotVerified() {
        JwtVerifier v = new JwtVerifier(pem(Optional.empty()));
        assertTrue(v.verify("eng_" + "a".repeat(43)).isEmpty());
        assertTrue(v.verify("a.b").isEmpty());
        assertTrue(v.verify("a..c").isEmpty());
        assertFalse(JwtVerifier.hasJwtForm("a.b.c.d"));
        assertTrue(JwtVerifier.hasJwtForm("a.b.c"));
    }

    /** The claims, issued {@code iat} seconds from now (null: no iat) and expiring {@code exp} seconds from now. */
    static JwtClaims timed(Long iat, long exp) {
        JwtClaims c = claims();
        long now = NumericDate.now().getValue();
        if (iat == null) {
            c.unsetClaim("iat");
        } else {
            c.setIssuedAt(NumericDate.fromSeconds(now + iat));
        }
        c.setExpirationTime(NumericDate.fromSeconds(now + exp));
        return c;
    }

    @Test
    void aTokenLongerLivedThanTheMaximumIsRefusedAndOneWithoutIatIsRefused() {
        JwtVerifier v = new JwtVerifier(pem(Optional.empty()));
        long day = 24 * 3600;
        assertTrue(v.verify(token(timed(0L, day - 60))).isPresent(), "just under a day");
        assertTrue(v.verify(token(timed(-3600L, day - 3600))).isPresent(), "a day, issued an hour ago");
        assertTrue(v.verify(token(timed(0L, 100L * 365 * day))).isEmpty(), "a century");
        assertTrue(v.verify(token(timed(-3600L, day))).isEmpty(), "25 hours from iat");
        assertTrue(v.verify(token(timed(null, day + 600))).isEmpty(), "no iat, over a day");
        assertTrue(v.verify(token(timed(null, 600))).isEmpty(), "no iat: smallrye-jwt requires it");

        Settings hour = pem(Optional.empty());
        JwtVerifier shorter = new JwtVerifier(new Settings(hour.issuer(), hour.publicKey(), Optional.empty(),
                Optional.empty(), "engram_grants", Duration.ofHours(1), Duration.ofSeconds(60)));
        assertTrue(shorter.verify(token(timed(0L, 3000))).isPresent());
        assertTrue(shorter.verify(token(timed(0L, 7200))).isEmpty(), "two hours over a one-hour maximum");
    }

    @Test
    void timesAreTakenWithinTheClockSkewAndRefusedBeyondIt() {
        JwtVerifier v = new JwtVerifier(pem(Optional.empty()));
        assertTrue(v.verify(token(timed(3600L, 7200))).isEmpty(), "iat an hour ahead");
        assertTrue(v.verify(token(timed(120L, 600))).isEmpty(), "iat two minutes ahead");
        assertTrue(v.verify(token(timed(30L, 600))).isPresent(), "iat 30 s ahead, within the skew");
        assertTrue(v.verify(token(timed(-600L, -30))).isPresent(), "expired 30 s ago, within the skew");
        assertTrue(v.verify(token(timed(-600L, -120))).isEmpty(), "expired two minutes ago");
        JwtClaims early = timed(0L, 600);
        early.setNotBefore(NumericDate.fromSeconds(NumericDate.now().getValue() + 120));
        assertTrue(v.verify(token(early)).isEmpty(), "nbf two minutes ahead");
        JwtClaims soon = timed(0L, 600);
        soon.setNotBefore(NumericDate.fromSeconds(NumericDate.now().getValue() + 30));
        assertTrue(v.verify(token(soon)).isPresent(), "nbf 30 s ahead, within the skew");

        Settings s = pem(Optional.empty());
        JwtVerifier strict = new JwtVerifier(new Settings(s.issuer(), s.publicKey(), Optional.empty(),
                Optional.empty(), "engram_grants", Duration.ofHours(24), Duration.ZERO));
        assertTrue(strict.verify(token(timed(30L, 600))).isEmpty(), "iat 30 s ahead, no skew");
        assertTrue(strict.verify(token(timed(-600L, -30))).isEmpty(), "expired 30 s ago, no skew");
    }
}
