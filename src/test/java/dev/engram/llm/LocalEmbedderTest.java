package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memories.rank.Embedder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local model, really loaded and run (all-MiniLM-L6-v2 quantized through onnxruntime): 384-dimensional unit
 * vectors, in order, that put sentences of one meaning closer together than unrelated ones.
 */
class LocalEmbedderTest {

    static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();
    static Embedders embedders;
    static Embedder local;

    @BeforeAll
    static void load() {
        embedders = new Embedders(EmbeddingSettings.of(), REGISTRY, false);
        local = embedders.embedder();
        embedders.start(null);
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
        }
        return dot;
    }

    static double length(float[] v) {
        return Math.sqrt(cosine(v, v));
    }

    @Test
    void twoTextsBecomeTwoUnitVectorsOf384() {
        List<float[]> vectors = local.embed(List.of("The user prefers dark mode.", "Deploys happen on Fridays."));

        assertEquals(2, vectors.size());
        for (float[] v : vectors) {
            assertEquals(384, v.length);
            assertEquals(1.0, length(v), 1e-5);
        }
        assertTrue(cosine(vectors.get(0), vectors.get(1)) < 0.99, "two different texts, two different vectors");
        EmbedderStatus status = embedders.status();
        assertEquals(new EmbedderStatus("local", "all-minilm-l6-v2-q", 384, true, ""), status);
    }

    @Test
    void similarSentencesAreCloserThanUnrelatedOnes() {
        List<float[]> v = local.embed(List.of(
                "My cat likes to sleep on the sofa.",
                "The kitten naps on the couch all afternoon.",
                "Quarterly tax filings are due at the end of April."));

        double similar = cosine(v.get(0), v.get(1));
        double unrelated0 = cosine(v.get(0), v.get(2));
        double unrelated1 = cosine(v.get(1), v.get(2));
        assertTrue(similar > unrelated0 && similar > unrelated1,
                "similar " + similar + ", unrelated " + unrelated0 + " and " + unrelated1);
    }

    @Test
    void oneTextGivesTheSameVectorAloneAsInABatch() {
        String text = "Alice moved to Lisbon in 2021.";
        float[] alone = local.embed(List.of(text)).get(0);
        float[] inBatch = local.embed(List.of("Something else entirely.", text)).get(1);
        assertEquals(1.0, cosine(alone, inBatch), 1e-5);
    }

    @Test
    void callsThatPassAreTimed() {
        long before = REGISTRY.get("engram.embedding.seconds").timer().count();
        local.embed(List.of("one", "two"));
        assertEquals(before + 1, REGISTRY.get("engram.embedding.seconds").timer().count());
    }
}
