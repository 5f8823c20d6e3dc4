package dev.engram.contexts;

import dev.engram.kernel.ContextChanged;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Prompt;
import dev.engram.contexts.tokens.TokenCounter;
import static dev.engram.contexts.Steps.context;
import static dev.engram.contexts.Steps.contents;
import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.numbered;
import static dev.engram.contexts.Steps.step;
import static dev.engram.contexts.Steps.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A compaction computed apart from the context it lands on (as a store does while a model answers): it lands on the
 * same context, or on it with steps appended since, and refuses any other change; the blocks' order in the prefix
 * does not depend on the order a summarizer answered them in; a built prompt says what it pruned and evicted.
 */
class CompactionLandingTest {

    private static final ContextConfig BIG = model(128000, 4096);
    private static final CompactionStrategy SLIDING = CompactionStrategy.slidingWindow(1, 1);

    static Context filled(ContextConfig config, CompactionStrategy strategy, int steps) {
        Context context = context(config, strategy);
        context.setTask("Task");
        numbered(steps).forEach(context::addStep);
        return context;
    }

    /** The same context as a store would read it again: restored from its state. */
    static Context reread(Context context, CompactionStrategy strategy) {
        return Context.restore(context.config(), TokenCounter.simple(), strategy, context.state());
    }

    @Test
    void aCompactionLandsOnTheContextItWasComputedFromAsCompactDoes() {
        Context direct = filled(BIG, SLIDING, 6);
        Context apart = reread(direct, SLIDING);
        CompactionResult expected = direct.compact().orElseThrow();
        Compaction prepared = reread(apart, SLIDING).prepareCompaction().orElseThrow();
        assertEquals(6, apart.steps().size(), "preparing changes nothing");
        assertEquals(expected, apart.land(prepared));
        assertEquals(direct.state(), apart.state());
    }

    @Test
    void stepsAppendedMeanwhileStayLiveAfterThePrefixAndCountInTheEstimate() {
        Context stored = filled(BIG, SLIDING, 6);
        Compaction prepared = reread(stored, SLIDING).prepareCompaction().orElseThrow();
        Step late = step("Late thought", "Late observation", 99);
        stored.addStep(late);

        CompactionResult result = stored.land(prepared);
        assertEquals(6, stored.compactedThroughIndex());
        assertEquals(7, stored.steps().size());
        List<Message> prompt = stored.buildPrompt();
        assertEquals(List.of("Late thought", "Late observation"),
                contents(prompt.subList(prompt.size() - 2, prompt.size())));
        assertEquals("[... 4 steps omitted ...]", prompt.get(4).content());

        Context without = filled(BIG, SLIDING, 6);
        without.compact();
        int lateTokens = TokenCounter.simple().count(late.accountedText());
        assertEquals(without.tracker().estimateTotal() + lateTokens, stored.tracker().estimateTotal());
        assertEquals((double) stored.tracker().estimateTotal() / stored.effectiveMax() * 100, result.afterPercent(),
                1e-9);
    }

    @Test
    void replacedStepsAnotherConfigurationOrAnotherCompactionRefuseTheLandingAndChangeNothing() {
        Context stored = filled(BIG, SLIDING, 6);
        Compaction prepared = reread(stored, SLIDING).prepareCompaction().orElseThrow();

        Context seeded = reread(stored, SLIDING);
        List<Step> other = new ArrayList<>(numbered(6));
        other.set(2, step("Changed", "x", 3));
        seeded.seedSteps(other);
        ContextState before = seeded.state();
        ContextChanged changed = assertThrows(ContextChanged.class, () -> seeded.land(prepared));
        assertTrue(changed.getMessage().contains("its steps were replaced"), changed.getMessage());
        assertEquals(before, seeded.state());

        Context shorter = reread(stored, SLIDING);
        shorter.seedSteps(numbered(5));
        assertThrows(ContextChanged.class, () -> shorter.land(prepared));

        Context reconfigured = Context.restore(BIG.withSafetyMargin(20), TokenCounter.simple(), SLIDING,
                stored.state());
        assertTrue(assertThrows(ContextChanged.class, () -> reconfigured.land(prepared)).getMessage()
                .contains("it was reconfigured"));

        Context compactedMeanwhile = reread(stored, CompactionStrategy.slidingWindow(2, 2));
        compactedMeanwhile.compact();
        ContextState compactedState = compactedMeanwhile.state();
        assertTrue(assertThrows(ContextChanged.class, () -> compactedMeanwhile.land(prepared)).getMessage()
                .contains("another compaction landed"));
        assertEquals(compactedState, compactedMeanwhile.state());
    }

    @Test
    void blocksKeepTheStepsOrderWhateverOrderTheSummariesCameIn() {
        Summarizer backwards = new Summarizer() {
            @Override
            public String summarize(String text) {
                return "summary of " + text.substring(text.indexOf("Thought: ") + 9, text.indexOf('\n',
                        text.indexOf("Thought: ")));
            }

            @Override
            public List<Answer> summarizeEach(List<String> texts) {
                List<CompletableFuture<Answer>> asked = new ArrayList<>();
                for (int i = texts.size() - 1; i >= 0; i--) {
                    String text = texts.get(i);
                    asked.add(0, CompletableFuture.supplyAsync(() -> Answer.of(this, text)));
                }
                return asked.stream().map(CompletableFuture::join).toList();
            }
        };
        List<Message> hierarchical = CompactionStrategy.hierarchical(0, 0, 0, 0, backwards, null, 0)
                .compact(numbered(30), 0);
        assertEquals(List.of("summary of Thought 1", "summary of Thought 13", "summary of Thought 18"),
                contents(hierarchical.subList(0, 3)));
        List<Message> summarization = CompactionStrategy.summarization(5, 5, 0, backwards, null, 0)
                .compact(numbered(20), 0);
        assertEquals(List.of("summary of Thought 1", "summary of Thought 6", "summary of Thought 11"),
                contents(summarization.subList(0, 3)));
    }

    @Test
    void aBuiltPromptSaysHowManyOutputsItPrunedAndEvicted() {
        ContextConfig config = BIG.withPruning(new ContextConfig.Pruning(1, List.of(), "[PRUNED]", 0))
                .withHistoryMutation(new ContextConfig.HistoryMutation(0, true, false));
        Context context = context(config, SLIDING);
        context.addStep(tool("T1", "done", "update_checklist", 1));
        context.addStep(step("T2", "old", 2));
        context.addStep(step("T3", "older", 3));
        context.addStep(Step.thought("only thinking"));
        context.addStep(step("T5", "kept", 5));
        Prompt prompt = context.assemblePrompt();
        assertEquals(context.buildPrompt(), prompt.messages());
        assertEquals(2, prompt.prunedOutputs());
        assertEquals(1, prompt.evictedOutputs());

        context.compact();
        context.addStep(step("T6", "new", 6));
        Prompt afterCompaction = context.assemblePrompt();
        assertEquals(0, afterCompaction.prunedOutputs(), "outputs in the compacted prefix are not counted");
        assertEquals(0, afterCompaction.evictedOutputs());
    }
}
