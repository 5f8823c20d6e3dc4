package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ReasoningItem;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import static dev.engram.contexts.Steps.context;
import static dev.engram.contexts.Steps.contents;
import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.numbered;
import static dev.engram.contexts.Steps.roles;
import static dev.engram.contexts.Steps.step;
import static dev.engram.contexts.Steps.tool;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Edge cases of prompt assembly, pruning with mutation, and the strategies' exact texts. */
class PromptAndStrategyTest {

    private static final ContextConfig BIG = model(128000, 4096);

    @Test
    void aMutatedOutputIsNotPrunedAndPlaceholdersAreFenced() {
        ContextConfig config = BIG.withInjectionDefense(true)
                .withPruning(new ContextConfig.Pruning(1, List.of(), "[PRUNED]", 0))
                .withHistoryMutation(new ContextConfig.HistoryMutation(0, true, false));
        Context context = context(config, null);
        context.addStep(tool("T1", "done", "update_checklist", 1));
        context.addStep(tool("T2", "secret page", "web_fetch", 2).withUntrusted(true));
        context.addStep(step("T3", "kept", 3));
        List<Message> prompt = context.buildPrompt();
        assertEquals("[checklist update — evicted]", prompt.get(2).content());
        assertEquals("<untrusted-content source=\"web_fetch\">\n[PRUNED]\n</untrusted-content>",
                prompt.get(4).content());
        assertEquals("kept", prompt.get(6).content());
    }

    @Test
    void belowThePruningThresholdNothingMutates() {
        ContextConfig config = BIG.withPruning(new ContextConfig.Pruning(1, List.of(), "", 50))
                .withHistoryMutation(new ContextConfig.HistoryMutation(1, true, true));
        Context context = context(config, null);
        context.addStep(tool("T1", "done", "update_checklist", 1));
        context.addStep(tool("T2", "x", "read_file", 2).withCacheHash("h"));
        context.addStep(tool("T3", "x", "read_file", 3).withCacheHash("h"));
        assertEquals(List.of("done", "x", "x"), tools(context.buildPrompt()));
        context.correctTokenCount(100000);
        assertEquals(List.of("[checklist update — evicted]", HistoryMutator.reference("h"), "x"),
                tools(context.buildPrompt()));
    }

    @Test
    void withPruningOffMutationReachesEveryToolOutput() {
        Context context = context(BIG.withHistoryMutation(new ContextConfig.HistoryMutation(1, false, false)), null);
        context.addStep(tool("T1", "a", "read_file", 1).withCacheHash("h1"));
        context.addStep(tool("T2", "b", "read_file", 2).withCacheHash("h2"));
        context.addStep(tool("T3", "c", "read_file", 3));
        assertEquals(List.of(HistoryMutator.reference("h1"), HistoryMutator.reference("h2"), "c"),
                tools(context.buildPrompt()));
    }

    private static List<String> tools(List<Message> prompt) {
        return prompt.stream().filter(m -> m.role().equals("tool")).map(Message::content).toList();
    }

    @Test
    void groupsShowTheirAssistantAndTheLastMembersNudge() {
        Context context = context(BIG, null);
        context.addStep(Step.thought("").inGroup(3).withNudge("first nudge is ignored"));
        context.addStep(Step.thought("").inGroup(3).withNudge("last nudge"));
        assertEquals(List.of("System", "(proceeding)", "last nudge"), contents(context.buildPrompt()));
        List<Message> compacted = Transcript.of(context.steps());
        assertEquals(List.of("user"), roles(compacted), "the compaction path drops an empty assistant with a nudge");
    }

    @Test
    void reasoningItemsAreLiveOnly() {
        List<ReasoningItem> items = List.of(new ReasoningItem("r1", "because"));
        Step step = step("T", "O", 1).withReasoning("thinking", items);
        Context context = context(BIG, null);
        context.addStep(step);
        Message live = context.buildPrompt().get(1);
        assertEquals("thinking", live.reasoningContent());
        assertEquals(items, live.reasoningItems());
        Message compacted = Transcript.of(List.of(step)).get(0);
        assertEquals("thinking", compacted.reasoningContent());
        assertEquals(List.of(), compacted.reasoningItems());

        Context reasoningOnly = context(BIG, null);
        reasoningOnly.addStep(new Step("", "why", List.of(), ToolCall.NONE, "", false, 0, "nudge", 0, false, ""));
        assertEquals(List.of("system", "assistant", "user"), roles(reasoningOnly.buildPrompt()),
                "reasoning makes it more than a nudge");
    }

    @Test
    void emptyObservationsReadNoOutput() {
        Context context = context(BIG, null);
        context.addStep(step("T", " \n\u200b", 1));
        assertEquals("(no output)", context.buildPrompt().get(2).content());
    }

    @Test
    void compactNeedsAStrategyAndSteps() {
        assertEquals(Optional.empty(), context(BIG, null).compact());
        assertEquals(Optional.empty(), context(BIG, CompactionStrategy.slidingWindow(1, 1)).compact());
        Context small = context(BIG, CompactionStrategy.slidingWindow(5, 5));
        small.addStep(step("T1", "O1", 1));
        CompactionResult result = small.compact().orElseThrow();
        assertEquals(small.tracker().estimateTotal() * 100.0 / small.effectiveMax(), result.afterPercent(), 1e-9);
        assertTrue(result.afterPercent() > result.beforePercent(), "reported even when nothing shrank");
    }

    @Test
    void seedingClearsTheCompactedPrefix() {
        Context context = context(BIG, CompactionStrategy.slidingWindow(1, 1));
        numbered(6).forEach(context::addStep);
        context.compact();
        assertTrue(context.compactedPrefix().isPresent());
        assertEquals(6, context.compactedThroughIndex());
        context.seedSteps(numbered(2));
        assertEquals(Optional.empty(), context.compactedPrefix());
        assertEquals(0, context.compactedThroughIndex());
        assertEquals(5, context.buildPrompt().size());
    }

    @Test
    void aSavedStateRestoresTheSameContext() {
        Context context = context(BIG, CompactionStrategy.slidingWindow(1, 1));
        context.setTaskWithBlocks("task", List.of(ContentBlock.image("AA", "image/png")));
        context.setPlan("plan");
        context.setPriorConversation(List.of(Message.user("before")));
        context.setPendingInterjection("now");
        numbered(6).forEach(context::addStep);
        context.compact();
        context.addStep(step("after", "compaction", 99));
        ContextState state = context.state();
        Context restored = Context.restore(BIG, TokenCounter.simple(), CompactionStrategy.slidingWindow(1, 1), state);
        assertEquals(context.buildPrompt(), restored.buildPrompt());
        assertEquals(context.checkFill(), restored.checkFill());
        assertEquals(state, restored.state());
        assertEquals(List.of("System", "task", "plan"), contents(Context.restore(BIG, TokenCounter.simple(), null,
                new ContextState("System", "task", null, "plan", null, null, null, false, null, 3, 0, 0))
                .buildPrompt()));
    }

    @Test
    void contextOfBuildsTheNamedStrategyAndCounter() {
        ContextConfig config = BIG.withStrategy(StrategySettings.named("summarization"));
        List<String> received = new ArrayList<>();
        Context context = Context.of(config, text -> {
            received.add(text);
            return "summary";
        });
        numbered(7).forEach(context::addStep);
        context.compact();
        assertEquals(1, received.size());
        assertEquals(List.of("summary", "Thought 3", "Observation 3"), contents(context.buildPrompt()).subList(0, 3));
    }

    @Test
    void summarizationBlockTextIsExact() {
        Summarization strategy = new Summarization(10, 5, 5, null, null, 0);
        List<Step> block = List.of(Step.tool("think", new ToolCall("c1", "web_fetch", ""), "abcdefgh")
                .withUntrusted(true), Step.thought(""), Step.nudge("n"));
        assertEquals("Step 1:\n  Thought: think\n  Action: web_fetch\n  Observation: "
                + "<untrusted-content source=\"web_fetch\">\nabcd…\n</untrusted-content>\n"
                + "\nStep 2:\n\nStep 3:\n", strategy.blockText(block));
    }

    @Test
    void hierarchicalBlockTextIsExact() {
        Hierarchical strategy = new Hierarchical(0.4, 0.3, 0.3, 10, null, null, 0);
        List<Step> block = List.of(Step.tool("t", new ToolCall("c1", "read", ""), "0123456789AB"), Step.thought(""));
        assertEquals("Summarize the following 2 steps from the distant zone:\nStep 1:\n  Thought: t\n  Action: read"
                + "\n  Observation: 01234…\nStep 2:", strategy.blockText(block, "distant"));
        assertEquals("Summarize the following 2 steps from the middle zone:\nStep 1:\n  Thought: t\n  Action: read"
                + "\n  Observation: 012345678…\nStep 2:", strategy.blockText(block, "middle"));
    }

    @Test
    void hierarchicalZonesFollowTheReferenceRounding() {
        Hierarchical defaults = new Hierarchical(0.4, 0.3, 0.3, 0, null, null, 0);
        assertArrayEquals(new int[] {2, 4}, defaults.zones(6));
        assertArrayEquals(new int[] {12, 21}, defaults.zones(30));
        assertArrayEquals(new int[] {20, 35}, defaults.zones(50));
        Hierarchical allDistant = new Hierarchical(1, 0.0001, 0.0001, 0, null, null, 0);
        assertArrayEquals(new int[] {9, 9}, allDistant.zones(10));
        Hierarchical tinyDistant = new Hierarchical(0.01, 0.01, 0.98, 0, null, null, 0);
        assertArrayEquals(new int[] {1, 2}, tinyDistant.zones(10));
        Hierarchical unnormalized = new Hierarchical(4, 3, 3, 0, null, null, 0);
        assertArrayEquals(defaults.zones(30), unnormalized.zones(30));
    }

    @Test
    void hierarchicalFailureText() {
        CompactionStrategy failing = CompactionStrategy.hierarchical(0, 0, 0, 0, text -> {
            throw new IllegalStateException("rate limited");
        }, null, 0);
        assertEquals(List.of("[distant zone: 6 steps summarized (error: rate limited)]",
                "[middle zone: 4 steps summarized (error: rate limited)]"),
                contents(failing.compact(numbered(15), 0).subList(0, 2)));
    }

    @Test
    void strategiesNeverReorder() {
        List<Message> messages = CompactionStrategy.of(StrategySettings.named("summarization"), text -> "S", null)
                .compact(numbered(30), 0);
        List<String> thoughts = contents(messages).stream().filter(c -> c.startsWith("Thought")).toList();
        assertEquals(List.of("Thought 26", "Thought 27", "Thought 28", "Thought 29", "Thought 30"), thoughts);
        assertEquals(List.of("S", "S", "S"), contents(messages.subList(0, 3)));
    }
}
