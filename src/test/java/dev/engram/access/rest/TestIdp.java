package dev.engram.access.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

/**
 * An identity provider for the tests: an RSA key pair it generates, its public half as a JWK set in a file Engram is
 * configured with, and tokens it signs with the private half. Kept in files so the Quarkus profile and the test,
 * which may load this class apart, share one key pair.
 */
final class TestIdp {

    static final String ISSUER = "https://idp.example.test";
    static final Path DIR = Path.of("target", "test-idp");
    static final Path JWKS = DIR.resolve("jwks.json");
    static final Path PRIVATE = DIR.resolve("private.pk8");
    static final String KID = "test-key-1";

    private TestIdp() {
    }

    /** Generates the key pair once; returns the JWK set's absolute path. */
    static synchronized String jwksLocation() {
        try {
            if (!Files.exists(JWKS) || !Files.exists(PRIVATE)) {
                Files.createDirectories(DIR);
                KeyPair pair = generate();
                RsaJsonWebKey jwk = new RsaJsonWebKey((java.security.interfaces.RSAPublicKey) pair.getPublic());
                jwk.setKeyId(KID);
                jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
                Files.writeString(PRIVATE, Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded()));
                Files.writeString(JWKS, new JsonWebKeySet(jwk).toJson());
            }
            return JWKS.toAbsolutePath().toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KeyPair generate() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static PrivateKey privateKey() {
        try {
            jwksLocation();
            byte[] der = Base64.getDecoder().decode(Files.readString(PRIVATE).trim());
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token signed by this provider: {@code sub}, {@code iss}, an expiry in five minutes, and {@code more}. */
    static String token(String subject, Map<String, Object> more) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setSubject(subject);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(5);
        more.forEach(claims::setClaim);
        return sign(claims, privateKey(), KID);
    }

    static String sign(JwtClaims claims, PrivateKey key, String kid) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setKeyIdHeaderValue(kid);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }
}
