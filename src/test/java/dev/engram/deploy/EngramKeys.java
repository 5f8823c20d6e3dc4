package dev.engram.deploy;

import dev.engram.ops.EngramConfig;
import io.smallrye.config.ConfigMappings;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The environment variables Engram reads: every property of its one configuration mapping, {@link EngramConfig} (with
 * {@code AuthConfig} and the other groups in it), named as SmallRye names them, then in environment form.
 */
final class EngramKeys {

    private EngramKeys() {
    }

    /** {@code ENGRAM_AUTH_JWT_ISSUER} and the rest. */
    static Set<String> envNames() {
        Set<String> names = new TreeSet<>();
        for (String property : properties()) {
            names.add(envName(property));
        }
        return names;
    }

    /** {@code engram.auth.jwt.issuer} and the rest (a list's indexed form {@code [*]} left out). */
    static Set<String> properties() {
        Set<String> properties = new TreeSet<>();
        for (String p : ConfigMappings.getProperties(new ConfigMappings.ConfigClass(EngramConfig.class, "engram"))
                .keySet()) {
            if (!p.endsWith("[*]")) {
                properties.add(p);
            }
        }
        return properties;
    }

    /** SmallRye's environment form of a property: every character but a letter or digit becomes _, upper case. */
    static String envName(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
}
