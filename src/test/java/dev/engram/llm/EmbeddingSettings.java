package dev.engram.llm;

import dev.engram.ops.EngramConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** {@code engram.embedding.*} as Engram's configuration mapping reads them, from properties without the prefix. */
final class EmbeddingSettings {

    private EmbeddingSettings() {
    }

    /** The settings of {@code properties} ({@code "provider", "openai"}, ...), the mapping's defaults for the rest. */
    static EngramConfig.Embedding of(String... properties) {
        Map<String, String> map = new HashMap<>();
        map.put("engram.statement-timeout", "5s");
        for (int i = 0; i < properties.length; i += 2) {
            map.put("engram.embedding." + properties[i], properties[i + 1]);
        }
        return new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 100, new DurationConverter())
                .withMapping(EngramConfig.class)
                .withSources(new PropertiesConfigSource(map, "test", 300))
                .build()
                .getConfigMapping(EngramConfig.class)
                .embedding();
    }
}
