package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A call without an id (Ollama's carry none) is still a tool call, with a stable id (issue 22, item 4). */
class ToolCallIdsTest {

    private static Context context() {
        return new Context(ContextConfig.defaults(), TokenCounter.simple(), CompactionStrategy.slidingWindow(1, 1));
    }

    private static Step idless(String observation) {
        return Step.tool("Reading.", new ToolCall("", "read_file", "{\"path\": \"a.txt\"}"), observation);
    }

    @Test
    void aCallWithoutAnIdGetsOneFromItsPlaceAndItsOutputStaysInThePrompt() {
        Context c = context();
        c.addStep(Step.thought("Thinking."));
        c.addStep(idless("hello from a.txt"));
        c.addStep(Step.tool("Again.", new ToolCall("call_9", "read_file", "{}"), "given id"));
        c.addStep(idless("second read"));
        List<Step> steps = c.steps();
        assertEquals("call_engram_1", steps.get(1).action().id());
        assertEquals("call_9", steps.get(2).action().id());
        assertEquals("call_engram_3", steps.get(3).action().id());
        assertTrue(steps.get(1).isToolStep());
        List<Message> prompt = c.buildPrompt();
        Message tool = prompt.stream().filter(m -> m.role().equals("tool") && m.toolCallId().equals("call_engram_1"))
                .findFirst().orElseThrow();
        assertEquals("hello from a.txt", tool.content());
        assertTrue(prompt.stream().anyMatch(m -> m.toolCalls().stream()
                .anyMatch(call -> call.id().equals("call_engram_1") && call.name().equals("read_file"))));
    }

    @Test
    void theSameStepsGetTheSameIdsWhenReplayedOrSeeded() {
        Context appended = context();
        List.of(idless("a"), idless("b")).forEach(appended::addStep);
        Context seeded = context();
        seeded.seedSteps(List.of(idless("a"), idless("b")));
        assertEquals(appended.steps(), seeded.steps());
        Context restored = Context.restore(ContextConfig.defaults(), TokenCounter.simple(),
                CompactionStrategy.slidingWindow(1, 1), appended.state());
        assertEquals(appended.buildPrompt(), restored.buildPrompt());
        assertEquals(List.of("call_engram_0", "call_engram_1"),
                seeded.steps().stream().map(s -> s.action().id()).toList());
    }

    @Test
    void aStepWithoutAToolIsNotGivenACall() {
        Context c = context();
        c.addStep(Step.thought("Only thinking."));
        assertEquals(ToolCall.NONE, c.steps().get(0).action());
    }
}
