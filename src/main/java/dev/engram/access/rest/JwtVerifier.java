package dev.engram.access.rest;

import dev.engram.access.Caller;
import dev.engram.access.Grant;
import dev.engram.kernel.Invalid;
import dev.engram.ops.AuthConfig;
import dev.engram.ops.EngramConfig;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTTokenParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;

/**
 * JWTs from an identity provider, verified with smallrye-jwt's parser against the configured public key or JWK set
 * and issuer (and audience, when set), signed with an asymmetric algorithm, not expired, not issued in the future and
 * valid for no longer than {@code engram.auth.jwt.max-lifetime} (each time within {@code engram.auth.jwt.clock-skew}).
 * The grants come from the claim {@code engram.auth.jwt.grants-claim} ({@code engram_grants}): an array of grants
 * as the keys API takes them. Off, and every token that is not a key refused, unless a public key or its location
 * is configured.
 */
@ApplicationScoped
public class JwtVerifier {

    private static final Logger LOG = Logger.getLogger(JwtVerifier.class);
    /** Kept as an EnumSet: given an immutable Set.of, smallrye-jwt 4.6 fails to load any key. */
    private static final Set<SignatureAlgorithm> ASYMMETRIC = EnumSet.of(SignatureAlgorithm.RS256,
            SignatureAlgorithm.RS384, SignatureAlgorithm.RS512, SignatureAlgorithm.PS256, SignatureAlgorithm.PS384,
            SignatureAlgorithm.PS512, SignatureAlgorithm.ES256, SignatureAlgorithm.ES384, SignatureAlgorithm.ES512,
            SignatureAlgorithm.EDDSA);

    private final JWTAuthContextInfo context;
    private final DefaultJWTTokenParser parser = new DefaultJWTTokenParser();
    private final String grantsClaim;
    private final Duration maxLifetime;
    private final Duration clockSkew;

    @Inject
    JwtVerifier(EngramConfig config) {
        this(config.auth().jwt());
    }

    /** A verifier for these settings; {@link #enabled} is false when they name no key. */
    public JwtVerifier(AuthConfig.Jwt settings) {
        this.grantsClaim = settings.grantsClaim();
        this.maxLifetime = settings.maxLifetime();
        this.clockSkew = settings.clockSkew();
        if (settings.publicKey().isEmpty() && settings.publicKeyLocation().isEmpty()) {
            context = null;
            return;
        }
        String issuer = settings.issuer().filter(i -> !i.isBlank()).orElseThrow(() -> new IllegalStateException(
                "engram.auth.jwt.issuer (ENGRAM_AUTH_JWT_ISSUER) must name the issuer whose tokens Engram takes."));
        context = new JWTAuthContextInfo();
        context.setIssuedBy(issuer);
        settings.publicKey().ifPresent(context::setPublicKeyContent);
        settings.publicKeyLocation().ifPresent(context::setPublicKeyLocation);
        settings.audience().ifPresent(context::setExpectedAudience);
        context.setSignatureAlgorithm(EnumSet.copyOf(ASYMMETRIC));
        context.setRequireNamedPrincipal(true);
        context.setClockSkew((int) Math.min(Integer.MAX_VALUE, clockSkew.toSeconds()));
    }

    /** Whether tokens from an identity provider are taken at all. */
    public boolean enabled() {
        return context != null;
    }

    /** Whether {@code token} has the form of a JWT (three dot-separated parts), so it is worth verifying. */
    static boolean hasJwtForm(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        return first > 0 && second > first + 1 && second < token.length() - 1 && token.indexOf('.', second + 1) < 0;
    }

    /** The caller a valid token names, until when; empty for an invalid, expired or ungranted one. */
    public Optional<Verified> verify(String token) {
        if (!enabled() || !hasJwtForm(token)) {
            return Optional.empty();
        }
        try {
            JwtClaims claims = parser.parse(token, context).getJwtClaims();
            String subject = claims.getSubject();
            if (subject == null || subject.isBlank() || claims.getExpirationTime() == null) {
                LOG.debug("Refused a token without sub or exp");
                return Optional.empty();
            }
            Optional<String> untimely = untimely(claims);
            if (untimely.isPresent()) {
                LOG.debugf("Refused a token: %s", untimely.get());
                return Optional.empty();
            }
            List<Grant> grants = GrantJson.fromClaim(claims.getClaimValue(grantsClaim));
            String name = claims.getClaimValueAsString("preferred_username");
            Instant until = Instant.ofEpochSecond(claims.getExpirationTime().getValue());
            return Optional.of(new Verified(new Caller("jwt:" + subject, name == null ? subject : name, grants, false),
                    until));
        } catch (ParseException | MalformedClaimException | Invalid e) {
            LOG.debugf("Refused a token: %s", e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.warnf("Could not verify a token (%s); refused it.", e.toString());
            return Optional.empty();
        }
    }

    /**
     * Why a token's times are refused, beyond what smallrye-jwt checks ({@code exp} and {@code nbf} with the skew):
     * issued further ahead than the skew, or valid for longer than the maximum lifetime, counted from {@code iat}
     * (smallrye-jwt refuses a token without one; were it taken, from now).
     */
    private Optional<String> untimely(JwtClaims claims) throws MalformedClaimException {
        Instant now = Instant.now();
        Instant expires = Instant.ofEpochSecond(claims.getExpirationTime().getValue());
        Instant issued = claims.getIssuedAt() == null ? null : Instant.ofEpochSecond(claims.getIssuedAt().getValue());
        if (issued != null && issued.isAfter(now.plus(clockSkew))) {
            return Optional.of("iat " + issued + " is more than " + clockSkew + " ahead");
        }
        if (Duration.between(issued == null ? now : issued, expires).compareTo(maxLifetime) > 0) {
            return Optional.of("it is valid from " + (issued == null ? now : issued) + " to " + expires
                    + ", longer than " + maxLifetime);
        }
        return Optional.empty();
    }

    /** A token's caller and when the token expires. */
    public record Verified(Caller caller, Instant expires) {
    }
}
