package dev.engram.contexts;

import static dev.engram.contexts.ScenarioUnderTest.sliding;
import static dev.engram.contexts.ScenarioUnderTest.strategy;
import static dev.engram.contexts.ScenarioUnderTest.summarization;
import static dev.engram.contexts.Steps.contents;
import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.numbered;
import static dev.engram.contexts.Steps.roles;
import static dev.engram.contexts.Steps.shown;
import static dev.engram.contexts.Steps.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The reference's scenarios of compaction (part of {@link ScenarioContract}): the sliding window, summarization
 * and its failures and caps, the hierarchical strategy, steps after compaction and the tracker (S10-S17), and a
 * kept conversation compacted to a budget (S25).
 */
public interface ScenarioCompactionContract extends ScenarioUnderTest {

    @Test
    default void s10_slidingWindow() {
        List<Message> messages = compacted(sliding(3, 5), null, 20);
        assertEquals(17, messages.size());
        assertEquals("system:[... 12 steps omitted ...]", shown(messages.subList(6, 7)));
        assertEquals("Thought 16", messages.get(7).content());
        assertEquals("Thought 20", messages.get(15).content());
        assertEquals(10, compacted(sliding(3, 5), null, 5).size());
    }

    @Test
    default void s11_slidingDefaultsAndNegatives() {
        List<Message> messages = compacted(StrategySettings.named("sliding_window"), null, 20);
        assertEquals(27, messages.size());
        assertEquals("[... 7 steps omitted ...]", messages.get(6).content());
        // A configuration refuses negative sizes (strategy-negative); the strategy built directly clamps them.
        assertEquals(List.of("[... 10 steps omitted ...]"),
                contents(CompactionStrategy.slidingWindow(-1, -1).compact(numbered(10), 0)));
    }

    @Test
    default void s12_summarization() {
        Summarizer mock = text -> "SUMMARY: " + (text.split("Step ", -1).length - 1) + " steps summarized";
        List<Message> twenty = compacted(summarization(5, 5, 0), mock, 20);
        assertEquals(13, twenty.size());
        assertEquals(List.of("SUMMARY: 5 steps summarized", "SUMMARY: 5 steps summarized",
                "SUMMARY: 5 steps summarized"), contents(twenty.subList(0, 3)));
        assertEquals("Thought 16", twenty.get(3).content());

        AtomicInteger calls = new AtomicInteger();
        compacted(summarization(5, 5, 0), text -> "S" + calls.incrementAndGet(), 25);
        assertEquals(4, calls.get());

        List<Message> fallback = compacted(summarization(5, 5, 0), null, 15);
        assertEquals(List.of("[... 5 steps summarized ...]", "[... 5 steps summarized ...]"),
                contents(fallback.subList(0, 2)));
        assertEquals(12, fallback.size());
    }

    @Test
    default void s13_summarizerFailureKeepsGoing() {
        Summarizer cancelled = text -> {
            throw new IllegalStateException("context canceled");
        };
        List<Message> messages = compacted(summarization(5, 5, 0), cancelled, 15);
        assertEquals(List.of("[Summary of steps 1-5 failed: context canceled]",
                "[Summary of steps 6-10 failed: context canceled]"), contents(messages.subList(0, 2)));
        assertEquals(List.of("system", "system"), roles(messages.subList(0, 2)));
    }

    @Test
    default void s14_summarizerTokenCap() {
        TokenCounter tenPerChar = new TokenCounter() {
            @Override
            public int count(String text) {
                return text.length() * 10;
            }

            @Override
            public int countMessages(List<Message> messages) {
                return 0;
            }
        };
        List<String> received = new ArrayList<>();
        KeptContext context = new KeptContext(newKeeper(), strategy(summarization(5, 5, 100)), tenPerChar, text -> {
            received.add(text);
            return "ok";
        }, "System");
        context.addSteps(numbered(10));
        context.compact();
        String text = received.get(0);
        assertTrue(text.startsWith("Step 1:\n  Thought: Thought 1\n"), text);
        assertTrue(text.endsWith("…\n[... truncated for summarization ...]"), text);
        assertEquals(299 + 1 + "\n[... truncated for summarization ...]".length(), text.length());
        assertEquals(List.of("ok", "Thought 6"), contents(context.compactedPrefix().subList(0, 2)));
    }

    @Test
    default void s15_hierarchical() {
        Summarizer mock = text -> "SUMMARY " + (text.contains("from the distant zone:") ? "distant" : "middle");
        StrategySettings hierarchical = StrategySettings.named("hierarchical");
        List<Message> thirty = compacted(hierarchical, mock, 30);
        assertEquals(21, thirty.size());
        assertEquals(List.of("SUMMARY distant", "SUMMARY middle", "SUMMARY middle"), contents(thirty.subList(0, 3)));
        assertEquals("Thought 22", thirty.get(3).content());
        assertEquals(35, compacted(hierarchical, mock, 50).size());
        assertEquals(10, compacted(hierarchical, mock, 5).size());

        List<Message> fallback = compacted(hierarchical, null, 15);
        assertEquals(List.of("[distant zone: 6 steps summarized]", "[middle zone: 4 steps summarized]"),
                contents(fallback.subList(0, 2)));
        assertEquals(12, fallback.size());
    }

    @Test
    default void s16_stepsAfterCompactionFollowThePrefix() {
        KeptContext context = kept(model(5000, 1000).withStrategy(sliding(2, 2)));
        for (int i = 1; i <= 10; i++) {
            context.addStep(step("T" + i, "O" + i, i));
        }
        context.compact();
        assertEquals(10, context.buildPrompt().size());
        context.addStep(step("New thought", "New obs", 99));
        List<Message> prompt = context.buildPrompt();
        assertEquals(12, prompt.size());
        assertTrue(contents(prompt).containsAll(List.of("T1", "T9", "New thought")));
        assertFalse(contents(prompt).contains("T5"));

        context.compact();
        int compacted = context.buildPrompt().size();
        context.addStep(step("Second new thought", "Second new obs", 100));
        assertEquals(compacted + 2, context.buildPrompt().size());
    }

    @Test
    default void s17_compactionResultAndTracker() {
        KeptContext context = kept(model(5000, 4096).withStrategy(sliding(1, 1)));
        assertEquals(654, context.effectiveMax());
        for (int i = 1; i <= 30; i++) {
            context.addStep(step("T" + i, "x".repeat(400), i));
        }
        assertEquals(3240, context.estimateTotal());
        assertEquals("495.41", String.format("%.2f", context.checkFill().percent()));
        CompactionResult result = context.compact().orElseThrow();
        assertEquals("495.41", String.format("%.2f", result.beforePercent()));
        assertEquals("40.67", String.format("%.2f", result.afterPercent()));
        assertEquals(266, context.estimateTotal());
        assertEquals(13 + 253, context.checkFill().used());
        assertEquals(result.afterPercent(), context.checkFill().percent(), 1e-9);
        context.correctTokenCount(1234);
        assertEquals(1234, context.estimateTotal());
    }

    /** The conversation is kept as a context's prior conversation and compacted as it comes back. */
    @Test
    default void s25_ratioOutsideTheOpenIntervalIsRefusedAndBudgetZeroReturnsTheInput() {
        List<Message> sent = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            sent.add(Message.user("Question " + i + " about task " + "x".repeat(50)));
            sent.add(Message.assistant("This is an assistant response about task " + "x".repeat(50)));
        }
        KeptContext context = new KeptContext(newKeeper(), DEFAULT_MODEL, SIMPLE, null, "");
        context.setPriorConversation(sent);
        List<Message> messages = context.buildPrompt();
        assertEquals(sent, messages);
        for (double ratio : new double[] {0, 1, 1.5, -0.1, Double.NaN}) {
            Invalid refused = assertThrows(Invalid.class,
                    () -> ConversationCompaction.toBudget(messages, 100, SIMPLE, ratio));
            assertEquals("keep-recent-ratio-range", refused.rule());
        }
        assertSame(messages, ConversationCompaction.toBudget(messages, 0, SIMPLE, 0.75));
        assertSame(messages, ConversationCompaction.toBudget(messages, 0, null, 0.75));
        assertEquals(List.of(), ConversationCompaction.toBudget(List.of(), 10, null, 0.75));
        assertEquals("token-counter-required", assertThrows(Invalid.class,
                () -> ConversationCompaction.toBudget(messages, 10, null, 0.75)).rule());
    }
}
