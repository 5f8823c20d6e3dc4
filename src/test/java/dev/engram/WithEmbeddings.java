package dev.engram;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Engram as it runs by default, embedding with the local model. The other test profiles run without a model
 * ({@code %test.engram.embedding.provider=none}), so that each start of the suite does not load it again and the
 * memories other tests save are not embedded under them.
 */
public class WithEmbeddings implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("engram.embedding.provider", "local");
    }
}
