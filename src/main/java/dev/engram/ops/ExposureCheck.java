package dev.engram.ops;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Engram does not start listening beyond this machine with nothing that authenticates callers: a host that is not
 * loopback needs the operator key ({@code ENGRAM_ADMIN_KEY}) or JWT verification
 * ({@code engram.auth.jwt.public-key-location} or {@code engram.auth.jwt.public-key}). With the embedded database
 * the host defaults to 127.0.0.1 (EmbeddedDatabaseConfig, in local builds only); Quarkus's own default elsewhere is
 * 0.0.0.0.
 */
@ApplicationScoped
public class ExposureCheck {

    /** The settings any one of which means callers are authenticated. */
    static final List<String> CREDENTIALS = List.of("engram.admin-key", "engram.auth.jwt.public-key-location",
            "engram.auth.jwt.public-key");

    void check(@Observes @Priority(1) StartupEvent started) {
        Config config = ConfigProvider.getConfig();
        if (!config.getOptionalValue("quarkus.http.host-enabled", Boolean.class).orElse(true)) {
            return;
        }
        Optional<String> testHost = LaunchMode.current() == LaunchMode.TEST
                ? config.getOptionalValue("quarkus.http.test-host", String.class) : Optional.empty();
        String host = testHost.orElseGet(() -> config.getOptionalValue("quarkus.http.host", String.class)
                .orElse("0.0.0.0"));
        boolean credentials = CREDENTIALS.stream()
                .anyMatch(name -> config.getOptionalValue(name, String.class).filter(v -> !v.isBlank()).isPresent());
        refusal(host, credentials).ifPresent(message -> {
            throw new IllegalStateException(message);
        });
    }

    /** Why Engram must not start on {@code host}, if it must not. */
    static Optional<String> refusal(String host, boolean credentials) {
        if (credentials || isLoopback(host)) {
            return Optional.empty();
        }
        return Optional.of("Engram would listen on " + host + ", which other machines can reach, and nothing is "
                + "configured to authenticate its callers. Set ENGRAM_ADMIN_KEY (or JWT verification, "
                + "ENGRAM_AUTH_JWT_PUBLIC_KEY_LOCATION), or listen on this machine only with "
                + "QUARKUS_HTTP_HOST=127.0.0.1.");
    }

    /** Whether every address {@code host} names is a loopback address; an unknown name is not. */
    static boolean isLoopback(String host) {
        String h = host.trim();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.isEmpty()) {
            return false;
        }
        try {
            InetAddress[] addresses = InetAddress.getAllByName(h);
            for (InetAddress a : addresses) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
