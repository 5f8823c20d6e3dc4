package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.ops.EngramConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The settings the manifests may set are real: Engram's are derived from its configuration mapping, and each Quarkus
 * key the docs name is one Quarkus reads at start (a build-time key set in a pod would be ignored).
 */
class KnownSettingsTest {

    @Test
    void engramsKeysComeFromItsConfigurationMappingInEnvironmentForm() {
        var names = EngramKeys.envNames();
        for (String name : new String[] {"ENGRAM_ADMIN_KEY", "ENGRAM_AUTH_OPEN_OPS_ENDPOINTS", "ENGRAM_AUTH_JWT_ISSUER",
                "ENGRAM_AUTH_JWT_PUBLIC_KEY_LOCATION", "ENGRAM_REFLECT_LLM_API_KEY",
                "ENGRAM_CONTEXT_SUMMARIZER_API_KEY", "ENGRAM_MCP_ALLOWED_ORIGINS", "ENGRAM_STATEMENT_TIMEOUT",
                "ENGRAM_LIMITS_REQUESTS_PER_SECOND"}) {
            assertTrue(names.contains(name), name + " in " + names);
        }
        assertFalse(names.contains("ENGRAM_AUTH_JWT"), "a group is no key");
        assertFalse(names.stream().anyMatch(n -> n.contains("*")), names.toString());
        assertEquals("ENGRAM_AUTH_JWT_PUBLIC_KEY_LOCATION", EngramKeys.envName("engram.auth.jwt.public-key-location"));
    }

    @Test
    void everyQuarkusKeyTheDocsNameIsOneQuarkusReadsAtStart() {
        assertTrue(QuarkusKeys.byEnv().size() > 500, "the configuration models of Quarkus's extensions were found");
        for (String env : KnownSettings.QUARKUS) {
            QuarkusKeys.Key key = QuarkusKeys.byEnv().get(env);
            assertTrue(key != null, env + " is no key of Quarkus's configuration roots");
            assertTrue(key.runTime(), env + " (" + key.property() + ") is fixed at build time (" + key.phase() + ")");
        }
    }

    @Test
    void theModelTellsBuildTimeKeysAndTyposApart() {
        QuarkusKeys.Key metrics = QuarkusKeys.byEnv().get("QUARKUS_DATASOURCE_METRICS_ENABLED");
        assertEquals("quarkus.datasource.metrics.enabled", metrics.property());
        assertFalse(metrics.runTime(), "set in application.properties, not in a pod");
        assertFalse(QuarkusKeys.byEnv().containsKey("QUARKUS_DATASOURCE_JDBC_ULR"));
        assertEquals("quarkus.datasource.jdbc.url", QuarkusKeys.byEnv().get("QUARKUS_DATASOURCE_JDBC_URL").property());
    }

    @Test
    void anEmptyConfigMapValueLeavesAnOptionalSettingUnset() {
        // The base ConfigMap carries ENGRAM_AUTH_JWT_ISSUER and ..._PUBLIC_KEY_LOCATION empty: JWTs stay off.
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(EngramConfig.class)
                .withSources(new EnvConfigSource(Map.of("ENGRAM_AUTH_JWT_ISSUER", "",
                        "ENGRAM_AUTH_JWT_PUBLIC_KEY_LOCATION", "", "ENGRAM_STATEMENT_TIMEOUT", "5s"), 300))
                .build();
        EngramConfig engram = config.getConfigMapping(EngramConfig.class);
        assertEquals(Optional.empty(), engram.auth().jwt().issuer());
        assertEquals(Optional.empty(), engram.auth().jwt().publicKeyLocation());
    }
}
