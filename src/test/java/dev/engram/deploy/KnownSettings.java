package dev.engram.deploy;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The environment variables a manifest may set: Engram's own keys (all of them, derived from its configuration
 * mapping), the Quarkus keys docs/deploy.md names (each one a run-time key of Quarkus, which {@code KnownSettingsTest}
 * proves), and what the JVM image's entry point reads.
 */
final class KnownSettings {

    /** The Quarkus keys the deployment docs name; a key not here fails the manifests' check though Quarkus knows it. */
    static final List<String> QUARKUS = List.of(
            "QUARKUS_DATASOURCE_JDBC_URL",
            "QUARKUS_DATASOURCE_USERNAME",
            "QUARKUS_DATASOURCE_PASSWORD",
            "QUARKUS_DATASOURCE_JDBC_MAX_SIZE",
            "QUARKUS_HTTP_HOST",
            "QUARKUS_HTTP_PORT",
            "QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE");

    /**
     * Read by the JVM image's entry point (src/main/docker/Dockerfile.jvm) and its process, not by Engram: the JVM's
     * options, and glibc's limit on malloc arenas.
     */
    static final List<String> IMAGE = List.of("JAVA_OPTS", "MALLOC_ARENA_MAX");

    private KnownSettings() {
    }

    static Set<String> all() {
        Set<String> all = new TreeSet<>(EngramKeys.envNames());
        all.addAll(QUARKUS);
        all.addAll(IMAGE);
        return all;
    }
}
