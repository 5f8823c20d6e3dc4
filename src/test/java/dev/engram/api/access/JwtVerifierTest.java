package dev.engram.api.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Grant;
import dev.engram.access.Role;
import dev.engram.memory.Scope;
import dev.engram.ops.AuthConfig;
import java.security.KeyPair;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

/** The verifier on its own, with the public key inline as PEM: the settings that turn it on, and what it reads. */
class JwtVerifierTest {

    static final KeyPair PAIR = TestIdp.generate();

    record Settings(Optional<String> issuer, Optional<String> publicKey, Optional<String> publicKeyLocation,
            Optional<Set<String>> audience, String grantsClaim) implements AuthConfig.Jwt {
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
}
