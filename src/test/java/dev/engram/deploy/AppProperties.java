package dev.engram.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import javax.xml.parsers.DocumentBuilderFactory;

/** What the build itself says that the manifests must agree with: application.properties and pom.xml's version. */
final class AppProperties {

    private static final Properties PROPERTIES = load();

    private AppProperties() {
    }

    /** A key of application.properties (the default profile's), if it is set there. */
    static Optional<String> get(String key) {
        return Optional.ofNullable(PROPERTIES.getProperty(key));
    }

    /** The port Engram listens on. */
    static int httpPort() {
        return Integer.parseInt(get("quarkus.http.port").orElse("8080"));
    }

    /** The connections a replica pools at most when the manifests do not say: ours, else Quarkus's default. */
    static int poolMaxSize() {
        return Integer.parseInt(get("quarkus.datasource.jdbc.max-size").orElseGet(
                () -> QuarkusKeys.byEnv().get("QUARKUS_DATASOURCE_JDBC_MAX_SIZE").defaultValue()));
    }

    /**
     * How long Engram takes to stop at most: the shutdown delay (readiness DOWN while it still serves) plus the
     * shutdown timeout (in-flight requests finish); zero for a setting that is not there.
     */
    static Duration shutdown() {
        return duration("quarkus.shutdown.delay").plus(duration("quarkus.shutdown.timeout"));
    }

    /** The project's version, which the images are tagged with. */
    static String version() {
        try {
            var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
            var children = pom.getDocumentElement().getChildNodes();
            for (int i = 0; i < children.getLength(); i++) {
                if (children.item(i).getNodeName().equals("version")) {
                    return children.item(i).getTextContent().trim();
                }
            }
            throw new AssertionError("pom.xml has no <version>");
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read pom.xml's version", e);
        }
    }

    private static Duration duration(String key) {
        return get(key).map(AppProperties::parseDuration).orElse(Duration.ZERO);
    }

    /** Quarkus's forms: {@code 20s}, {@code 500ms}, {@code 1m}, a number of seconds, or ISO-8601 ({@code PT20S}). */
    static Duration parseDuration(String value) {
        String v = value.trim();
        if (v.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(v));
        }
        if (v.matches("\\d+ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        if (v.matches("\\d+[smhd]")) {
            return Duration.parse((v.endsWith("d") ? "P" : "PT") + v.toUpperCase(java.util.Locale.ROOT));
        }
        return Duration.parse(v);
    }

    private static Properties load() {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }
}
