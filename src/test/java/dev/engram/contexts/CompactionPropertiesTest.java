package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Invariants of compaction over random histories: it never grows, never reorders, never loses the last step. */
class CompactionPropertiesTest {

    private static final TokenCounter SIMPLE = TokenCounter.simple();

    private static Arbitrary<String> text(int max) {
        return Arbitraries.strings().withChars("ab \n—é\u200b").ofMaxLength(max);
    }

    /** Standalone tool steps with random thoughts, observations and nudges; call ids are unique. */
    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(text(40), text(200), text(10), Arbitraries.of("read_file", "t"),
                Arbitraries.of(false, true))
                .as((thought, observation, nudge, tool, untrusted) -> Step.tool(thought,
                        new ToolCall("id", tool, "{\"path\": \"a\"}"), observation).withNudge(nudge)
                        .withUntrusted(untrusted));
        return step.list().ofMinSize(1).ofMaxSize(60).map(CompactionPropertiesTest::numbered);
    }

    private static List<Step> numbered(List<Step> steps) {
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            out.add(new Step(s.thought(), "", List.of(), new ToolCall("call_" + i, s.action().name(),
                    s.action().input()), s.observation(), false, 0, s.userNudge(), 0, s.untrusted(), ""));
        }
        return out;
    }

    @Provide
    Arbitrary<CompactionStrategy> strategies() {
        Arbitrary<CompactionStrategy> sliding = Combinators.combine(Arbitraries.integers().between(0, 12),
                Arbitraries.integers().between(1, 12)).as(CompactionStrategy::slidingWindow);
        Arbitrary<CompactionStrategy> summarization = Combinators.combine(Arbitraries.integers().between(1, 12),
                Arbitraries.integers().between(1, 12), Arbitraries.of(true, false))
                .as((block, keep, withSummarizer) -> CompactionStrategy.summarization(block, keep, 0,
                        withSummarizer ? text -> "short summary" : null, SIMPLE, 0));
        Arbitrary<CompactionStrategy> hierarchical = Combinators.combine(Arbitraries.doubles().between(0.01, 1),
                Arbitraries.doubles().between(0.01, 1), Arbitraries.doubles().between(0.01, 1))
                .as((d, m, r) -> CompactionStrategy.hierarchical(d, m, r, 0, null, SIMPLE, 0));
        return Arbitraries.oneOf(sliding, summarization, hierarchical);
    }

    @Property(tries = 300)
    void compactionNeverGrowsThePrompt(@ForAll("histories") List<Step> steps,
            @ForAll("strategies") CompactionStrategy strategy) {
        int before = SIMPLE.countMessages(Transcript.of(steps));
        int after = SIMPLE.countMessages(strategy.compact(steps, 0));
        assertTrue(after <= before, after + " > " + before);
    }

    @Property(tries = 300)
    void compactionKeepsTheLastStepAndTheOrder(@ForAll("histories") List<Step> steps,
            @ForAll("strategies") CompactionStrategy strategy) {
        List<Message> compacted = strategy.compact(steps, 0);
        String lastId = steps.get(steps.size() - 1).action().id();
        assertEquals(lastId, compacted.stream().filter(m -> m.role().equals("tool")).reduce((a, b) -> b)
                .orElseThrow().toolCallId());
        int previous = -1;
        for (Message message : compacted) {
            if (message.role().equals("tool")) {
                int index = Integer.parseInt(message.toolCallId().substring("call_".length()));
                assertTrue(index > previous, "steps keep their order");
                previous = index;
            }
        }
    }

    @Property(tries = 200)
    void aContextsCompactionNeverRaisesItsEstimateOfThePrompt(@ForAll("histories") List<Step> steps,
            @ForAll("strategies") CompactionStrategy strategy, @ForAll boolean defense) {
        Context context = new Context(ContextConfig.defaults().withPruning(ContextConfig.Pruning.OFF)
                .withInjectionDefense(defense), SIMPLE, strategy);
        context.setSystemPrompt("You are an agent.");
        context.setTask("do the thing");
        steps.forEach(context::addStep);
        int full = SIMPLE.countMessages(context.buildPrompt());
        context.compact();
        assertTrue(context.tracker().estimateTotal() <= full, context.tracker().estimateTotal() + " > " + full);
        assertEquals(context.buildPrompt(), context.buildPrompt(), "building is deterministic");
    }

    @Provide
    Arbitrary<List<Message>> conversations() {
        Arbitrary<Message> message = Combinators.combine(Arbitraries.of("user", "assistant", "system", "tool"),
                text(300)).as(Message::of);
        return message.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 300)
    void toBudgetFitsWheneverTheLastMessageCan(@ForAll("conversations") List<Message> messages,
            @ForAll @IntRange(min = 1, max = 3000) int budget) {
        List<Message> copy = List.copyOf(messages);
        List<Message> result = ConversationCompaction.toBudget(messages, budget, SIMPLE, 0.75);
        assertEquals(copy, messages, "the input is never changed");
        assertEquals(messages.get(messages.size() - 1), result.get(result.size() - 1), "the last message stays");
        int floor = SIMPLE.countMessages(List.of(Message.system("…"), messages.get(messages.size() - 1)));
        if (budget >= floor) {
            assertTrue(SIMPLE.countMessages(result) <= budget);
        }
    }

    @Property(tries = 200)
    void countCompactionKeepsTheLastMessageAndFitsWhenItCan(@ForAll("conversations") List<Message> messages,
            @ForAll @IntRange(min = 0, max = 2000) int budget,
            @ForAll("names") String name) {
        List<Message> result = ConversationCompaction.compact(messages, StrategySettings.named(name), text -> "sum",
                SIMPLE, budget);
        assertEquals(messages.get(messages.size() - 1), result.get(result.size() - 1));
        int pinned = ConversationCompaction.instructions(messages);
        assertEquals(messages.subList(0, pinned), result.subList(0, pinned), "the instructions stay as they are");
        boolean[] starts = ConversationCompaction.exchangeStarts(messages);
        int lastExchange = messages.size() - 1;
        while (!starts[lastExchange]) {
            lastExchange--;
        }
        List<Message> floor = new java.util.ArrayList<>(messages.subList(0, pinned));
        floor.addAll(messages.subList(Math.max(pinned, lastExchange), messages.size()));
        if (budget > 0 && SIMPLE.countMessages(floor) <= budget) {
            assertTrue(SIMPLE.countMessages(result) <= budget);
        }
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of(StrategySettings.NAMES);
    }
}
