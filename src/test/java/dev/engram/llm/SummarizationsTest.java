package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.contexts.Summarizer;
import dev.engram.kernel.Limited;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The replica's summarizations: answers in the texts' order however the helpers interleave, never more blocks at once
 * than the bound, failures counted apart, and a place per summarization that the next one beyond the bound lacks.
 */
class SummarizationsTest {

    @Test
    void answersComeInTheTextsOrderWithAtMostTheBoundAskedAtOnce() throws Exception {
        Summarizations summarizations = new Summarizations(2, 3);
        AtomicInteger asking = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Summarizer jittery = text -> {
            most.accumulateAndGet(asking.incrementAndGet(), Math::max);
            try {
                Thread.sleep(ThreadLocalRandom.current().nextInt(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                asking.decrementAndGet();
            }
            if (text.endsWith("7")) {
                throw new IllegalStateException("no summary for " + text);
            }
            return "summary of " + text;
        };
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            texts.add("text " + i);
        }
        for (int round = 0; round < 50; round++) {
            try (Summarizations.Run run = summarizations.start(jittery)) {
                List<Summarizer.Answer> answers = run.summarizeEach(texts);
                for (int i = 0; i < texts.size(); i++) {
                    Summarizer.Answer a = answers.get(i);
                    if (i % 10 == 7) {
                        assertTrue(a.failed());
                        assertEquals("no summary for text " + i, a.failure().getMessage());
                    } else {
                        assertEquals("summary of text " + i, a.summary());
                    }
                }
                assertEquals(36, run.answered());
                assertEquals(4, run.failed());
            }
        }
        assertTrue(most.get() <= 3, "at most 3 blocks at once, saw " + most.get());
        summarizations.stop();
    }

    @Test
    void oneSummarizationBeyondTheBoundIsRefusedUntilAPlaceIsFree() {
        Summarizations summarizations = new Summarizations(2, 1);
        Summarizations.Run first = summarizations.start(text -> "s");
        Summarizations.Run second = summarizations.start(text -> "s");
        Limited busy = assertThrows(Limited.class, () -> summarizations.start(text -> "s"));
        assertEquals(Limited.Kind.CAPACITY, busy.kind());
        assertEquals("summarizations", busy.limit());
        assertEquals(5, busy.retryAfterSeconds());
        first.close();
        first.close();
        Summarizations.Run third = summarizations.start(text -> "s");
        assertThrows(Limited.class, () -> summarizations.start(text -> "s"), "closing twice frees one place");
        third.close();
        second.close();
        try (Summarizations.Run a = summarizations.start(text -> "s");
                Summarizations.Run b = summarizations.start(text -> "s")) {
            assertEquals("s", a.summarize("x"));
            assertEquals(List.of(), b.summarizeEach(List.of()));
        }
    }
}
