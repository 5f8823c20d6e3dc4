package dev.engram;

import java.util.Map;

/**
 * Engram as it runs by default, embedding with the local model. The other test profiles run without a model
 * ({@code %test.engram.embedding.provider=none}), so that each start of the suite does not load it again and the
 * memories other tests save are not embedded under them.
 */
public class WithEmbeddings extends ConfigProfile {

    public WithEmbeddings() {
        super(Map.of("engram.embedding.provider", "local"));
    }
}
