package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.roles;
import static dev.engram.contexts.Steps.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.kernel.Invalid;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The memory block in a context's prompt: a system message after the system prompt's parts, not part of the state,
 * and counted in the fill as it is now (the estimate never holds it, so a provider's count and a compaction leave
 * it out of the estimate and the fill adds it back).
 */
class MemoryBlockTest {

    private static final String BLOCK = "# Memory\n\n## user\n\nNo entries.\n\nEntries: 0 shown, 0 omitted.";

    /** What the block's system message costs with the simple counter: role, content and 4. */
    private static int cost(String block) {
        return 2 + (block.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 3) / 4 + 4;
    }

    private static Context context() {
        Context context = new Context(model(10000, 1000), TokenCounter.simple(), CompactionStrategy.slidingWindow(1, 1));
        context.setSystemPrompt("Be careful." + Context.CACHE_BREAK + "Today is Monday.");
        context.setTask("Fix it.");
        return context;
    }

    @Test
    void theBlockFollowsTheSystemPromptsPartsAndIsNotState() {
        Context context = context();
        context.showMemoryBlock(BLOCK);
        context.addStep(step("look", "seen", 1));
        List<Message> prompt = context.buildPrompt();
        assertEquals(List.of("system", "system", "system", "user", "assistant", "tool"), roles(prompt));
        assertEquals(BLOCK, prompt.get(2).content());
        Context restored = Context.restore(context.config(), TokenCounter.simple(), null, context.state());
        assertEquals(List.of("system", "system", "user", "assistant", "tool"), roles(restored.buildPrompt()));
        context.showMemoryBlock("");
        assertEquals(5, context.buildPrompt().size());
    }

    @Test
    void theFillCountsTheBlockAsItIsNow() {
        Context context = context();
        context.addStep(step("look", "seen", 1));
        int steps = context.checkFill().used();
        context.showMemoryBlock(BLOCK);
        assertEquals(steps + cost(BLOCK), context.checkFill().used());
        assertEquals(steps, context.tracker().estimateTotal(), "the estimate never holds the block");
        String grown = BLOCK + "x".repeat(400);
        context.showMemoryBlock(grown);
        assertEquals(steps + cost(grown), context.checkFill().used());
        assertEquals(context.effectiveMax() - steps - cost(grown), context.availableTokens());
    }

    @Test
    void aProvidersCountHoldsTheBlockSoTheEstimateKeepsTheRest() {
        Context context = context();
        context.showMemoryBlock(BLOCK);
        context.correctTokenCount(500);
        assertEquals(500, context.checkFill().used());
        assertEquals(500 - cost(BLOCK), context.tracker().estimateTotal());
        String grown = BLOCK + "x".repeat(40);
        context.showMemoryBlock(grown);
        assertEquals(500 + cost(grown) - cost(BLOCK), context.checkFill().used(), "the block moved by 10 tokens");
        context.correctTokenCount(3);
        assertEquals(0, context.tracker().estimateTotal(), "never below 0");
        assertEquals(cost(grown), context.checkFill().used());
    }

    @Test
    void compactionCountsTheBlockInItsAfterButNotInTheEstimate() {
        Context plain = context();
        Context shown = context();
        shown.showMemoryBlock(BLOCK);
        for (int i = 1; i <= 6; i++) {
            plain.addStep(step("T" + i, "x".repeat(200), i));
            shown.addStep(step("T" + i, "x".repeat(200), i));
        }
        CompactionResult without = plain.compact().orElseThrow();
        CompactionResult with = shown.compact().orElseThrow();
        double share = (double) cost(BLOCK) / plain.effectiveMax() * 100;
        assertEquals(without.beforePercent() + share, with.beforePercent(), 1e-9);
        assertEquals(without.afterPercent() + share, with.afterPercent(), 1e-9);
        assertEquals(plain.tracker().estimateTotal(), shown.tracker().estimateTotal());
        assertEquals(with.afterPercent(), shown.checkFill().percent(), 1e-9);
    }

    @Test
    void theSettingsAreCheckedAndTheBoundDefaulted() {
        ContextConfig.Memory memory = new ContextConfig.Memory(List.of("user", "project"), 0, Map.of("user", 200));
        assertEquals(32768, memory.maxTotalBytes());
        assertEquals(true, memory.renders());
        assertEquals(ContextConfig.Memory.NONE, new ContextConfig.Memory(null, 0, null));
        assertEquals(ContextConfig.Memory.NONE, ContextConfig.defaults().memory());
        assertEquals(memory, ContextConfig.defaults().withMemory(memory).withModel(ContextConfig.Model.DEFAULT)
                .withPruning(ContextConfig.Pruning.OFF).memory(), "every with- keeps the block");
        refused("scope-format", () -> new ContextConfig.Memory(List.of("User"), 0, null));
        refused("scope-format", () -> new ContextConfig.Memory(Arrays.asList("user", null), 0, null));
        refused("scope-repeated", () -> new ContextConfig.Memory(List.of("user", "user"), 0, null));
        refused("memory-scopes-missing", () -> new ContextConfig.Memory(List.of(), 4000, null));
        refused("memory-scopes-missing", () -> new ContextConfig.Memory(null, 0, Map.of("user", 1)));
        refused("memory-scopes-count", () -> new ContextConfig.Memory(IntStream.range(0, 101)
                .mapToObj(i -> "s" + i).toList(), 0, null));
        refused("memory-negative", () -> new ContextConfig.Memory(List.of("user"), -1, null));
        refused("memory-negative", () -> new ContextConfig.Memory(List.of("user"), 0, Map.of("user", -1)));
        refused("memory-cap-scope", () -> new ContextConfig.Memory(List.of("user"), 0, Map.of("project", 10)));
    }

    private static void refused(String rule, org.junit.jupiter.api.function.Executable make) {
        assertEquals(rule, assertThrows(Invalid.class, make).rule());
    }
}
