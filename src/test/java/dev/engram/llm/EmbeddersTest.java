package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.ops.EngramConfig;
import dev.engram.memories.rank.Embedder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which embedder {@code engram.embedding.*} make, and the settings that cannot work, refused naming the setting. */
class EmbeddersTest {

    static Embedders embedders(String... properties) {
        return new Embedders(EmbeddingSettings.of(properties), new SimpleMeterRegistry(), false);
    }

    static Embedders inANativeImage(String... properties) {
        return new Embedders(EmbeddingSettings.of(properties), new SimpleMeterRegistry(), true);
    }

    @Test
    void theDefaultsAreTheLocalModel() {
        EngramConfig.Embedding defaults = EmbeddingSettings.of();
        assertEquals(Optional.empty(), defaults.provider());
        assertEquals(Optional.empty(), defaults.model());
        assertEquals(Optional.empty(), defaults.dimensions());
        assertEquals(Duration.ofSeconds(10), defaults.timeout());
        assertEquals(32, defaults.batchSize());
        assertEquals(false, defaults.preload());

        Embedders embedders = embedders();
        assertEquals("all-minilm-l6-v2-q", embedders.embedder().model());
        assertEquals(384, embedders.embedder().dimensions());
        // built, not loading: the load starts at application start or at the first embedding
        assertEquals(new EmbedderStatus("local", "all-minilm-l6-v2-q", 384, false, ""), embedders.status());
    }

    @Test
    void theLocalModelLoadsAtStartOnlyWhenToldToPreload() {
        Embedders lazy = embedders();
        lazy.start(null);
        assertFalse(lazy.localLoadStarted(), "without preload the application's start leaves the model unloaded");

        Embedders eager = embedders("preload", "true");
        eager.start(null);
        assertTrue(eager.localLoadStarted(), "with preload the application's start begins the load");
        Embedders none = embedders("provider", "none", "preload", "true");
        none.start(null);
        assertFalse(none.localLoadStarted());
    }

    @Test
    void theLocalModelMayBeNamed() {
        assertEquals("all-minilm-l6-v2-q", embedders("provider", "LOCAL", "model", "all-minilm-l6-v2-q",
                "dimensions", "384").embedder().model());
    }

    @Test
    void noneIsTheEmbedderOfNothing() {
        Embedders embedders = embedders("provider", "none");
        assertSame(Embedder.NONE, embedders.embedder());
        assertEquals(new EmbedderStatus("none", "", 0, false, ""), embedders.status());
    }

    @Test
    void aRemoteModelIsNotCalledUntilItEmbeds() {
        Embedders embedders = embedders("provider", "openai", "model", "text-embedding-3-small", "base-url",
                "http://127.0.0.1:9/v1");
        assertEquals(new EmbedderStatus("openai", "text-embedding-3-small", 0, true, ""), embedders.status());
        assertEquals(new EmbedderStatus("ollama", "nomic-embed-text", 768, true, ""), embedders("provider", "ollama",
                "model", "nomic-embed-text", "dimensions", "768").status());
    }

    @Test
    void aNativeImageHasNoLocalModel() {
        assertSame(Embedder.NONE, inANativeImage().embedder());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> inANativeImage("provider", "local"));
        assertEquals("engram.embedding.provider is local; the local model does not run in a native image. "
                + Embedders.HOW, e.getMessage());
        assertEquals("nomic-embed-text", inANativeImage("provider", "ollama", "model", "nomic-embed-text").embedder()
                .model());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "provider=word2vec | engram.embedding.provider is \"word2vec\"; it takes local, openai, ollama or none.",
        "provider=openai | engram.embedding.model is not set; the openai provider needs the model's name (such as "
                + "text-embedding-3-small).",
        "provider=ollama | engram.embedding.model is not set; the ollama provider needs the model's name (such as "
                + "nomic-embed-text).",
        "model=all-minilm-l6-v2 | engram.embedding.model is \"all-minilm-l6-v2\"; the local provider has only "
                + "all-minilm-l6-v2-q. Unset it, or choose the openai or ollama provider for another model.",
        "dimensions=768 | engram.embedding.dimensions is 768; the local model gives 384. Unset it.",
        "dimensions=0 | engram.embedding.dimensions is 0; it must be at least 1, or unset.",
        "batch-size=0 | engram.embedding.batch-size is 0; it must be at least 1.",
        "timeout=0s | engram.embedding.timeout is PT0S; it must be more than 0.",
    })
    void settingsThatCannotWorkAreRefused(String setting, String message) {
        String[] kv = setting.split("=");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> embedders(kv[0], kv[1]));
        assertEquals(message + " " + Embedders.HOW, e.getMessage());
        assertTrue(e.getMessage().contains("ENGRAM_EMBEDDING_PROVIDER"));
    }
}
