package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.llm.EmbeddingFailed.Reason;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard over a model that runs in the process (as the local one does) and answers what no JSON body can carry:
 * a NaN. It is refused and counted like every wrong answer; a blank text is refused before any call.
 */
class GuardedEmbedderTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    /** A model that answers {@code vector} for every text. */
    record Constant(float[] vector) implements EmbeddingModel {
        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            return Response.from(segments.stream().map(s -> Embedding.from(vector.clone())).toList());
        }
    }

    GuardedEmbedder guarded(float... vector) {
        return new GuardedEmbedder("test", "constant", ModelSource.of(new Constant(vector)), 2, 32, registry);
    }

    @Test
    void aNaNIsRefusedAndCounted() {
        EmbeddingFailed e = assertThrows(EmbeddingFailed.class,
                () -> guarded(Float.NaN, 1).embed(List.of("x")));
        assertEquals(Reason.NOT_FINITE, e.reason());
        assertEquals(1.0, registry.get("engram.embedding.failures").tag("reason", "not_finite").counter().count());
        assertEquals(0, registry.get("engram.embedding.seconds").timer().count());
    }

    @Test
    void aBlankTextIsRefusedBeforeTheModelIsAsked() {
        GuardedEmbedder guarded = guarded(1, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> guarded.embed(List.of("x", " ")));
        assertEquals("texts[1] is blank; there is nothing to embed", e.getMessage());
        assertEquals(0, registry.get("engram.embedding.seconds").timer().count());
        assertEquals(0.0, registry.get("engram.embedding.failures").counters().stream()
                .mapToDouble(c -> c.count()).sum());
    }

    @Test
    void noTextsAskNothing() {
        assertEquals(List.of(), guarded(1, 0).embed(List.of()));
        assertEquals(0, registry.get("engram.embedding.seconds").timer().count());
    }

    @Test
    void itsStatusSaysWhatItIs() {
        assertEquals(new EmbedderStatus("test", "constant", 2, true, ""), guarded(1, 0).status());
    }
}
