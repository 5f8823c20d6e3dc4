package dev.engram.ops;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Supplies the datasource when none is configured: starts the embedded PostgreSQL ({@code engram.data-dir},
 * default {@code .engram}), points {@code quarkus.datasource.jdbc.url} at it with its user and password, and makes
 * Engram listen on 127.0.0.1 unless {@code quarkus.http.host} is set: a local run is not reachable from the
 * network by default. No shutdown delay either: there is no load balancer to tell, and the embedded server stops as
 * the JVM does, so requests served during a delay would only fail. With {@code QUARKUS_DATASOURCE_JDBC_URL} set it
 * does nothing, and Engram uses that server.
 */
public final class EmbeddedDatabaseConfig implements ConfigSourceFactory {

    /** Above application.properties (250), below system properties and the environment. */
    private static final int ORDINAL = 275;
    /** Below application.properties and everything else that can set the host, above Quarkus's own default. */
    private static final int HOST_ORDINAL = 150;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        return sources(context, ExecutionMode.current());
    }

    /** Nothing while Quarkus builds (UNSET) or when a datasource URL is set; else the embedded server's. */
    Iterable<ConfigSource> sources(ConfigSourceContext context, ExecutionMode mode) {
        if (mode == ExecutionMode.UNSET || isSet(context.getValue("quarkus.datasource.jdbc.url"))) {
            return List.of();
        }
        ConfigValue dir = context.getValue("engram.data-dir");
        ConfigValue fresh = context.getValue("engram.embedded.fresh");
        Path home = Path.of(isSet(dir) ? dir.getValue() : ".engram");
        String url = EmbeddedPostgres.start(home, isSet(fresh) && Boolean.parseBoolean(fresh.getValue()));
        return List.of(
                new PropertiesConfigSource(Map.of(
                        "quarkus.datasource.jdbc.url", url,
                        "quarkus.datasource.username", EmbeddedAuth.USER,
                        "quarkus.datasource.password", EmbeddedPostgres.password(home),
                        "quarkus.shutdown.delay", "0s"),
                        "engram-embedded-postgres", ORDINAL),
                new PropertiesConfigSource(Map.of("quarkus.http.host", "127.0.0.1"),
                        "engram-embedded-postgres-loopback", HOST_ORDINAL));
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(ORDINAL);
    }

    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank();
    }
}
