package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.memories.rank.Embedder;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The app's one embedder, with Engram's default settings: the local model, loaded by its first embedding. */
@QuarkusTest
@io.quarkus.test.junit.TestProfile(dev.engram.WithEmbeddings.class)
class AppEmbedderTest {

    @Inject
    Embedder embedder;

    @Inject
    Embedders embedders;

    @Test
    void theConfiguredEmbedderIsTheLocalModel() {
        assertEquals("all-minilm-l6-v2-q", embedder.model());
        assertEquals(384, embedder.dimensions());
        assertEquals(384, embedder.embed(List.of("Engram remembers.")).get(0).length);
        assertEquals(new EmbedderStatus("local", "all-minilm-l6-v2-q", 384, true, ""), embedders.status());
    }
}
