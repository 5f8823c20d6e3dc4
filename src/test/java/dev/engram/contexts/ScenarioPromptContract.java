package dev.engram.contexts;

import static dev.engram.contexts.Steps.contents;
import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.roles;
import static dev.engram.contexts.Steps.shown;
import static dev.engram.contexts.Steps.step;
import static dev.engram.contexts.Steps.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ToolCall;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reference's scenarios of the prompt (part of {@link ScenarioContract}): the effective maximum, fill levels,
 * rejection and correction, the prompt's order and its parts (S01-S09), seeding, the interjection and a task with
 * blocks (S23-S24).
 */
public interface ScenarioPromptContract extends ScenarioUnderTest {

    @Test
    default void s01_effectiveMax() {
        assertEquals(86808, kept(model(100000, 8192)).effectiveMax());
        assertEquals(117504, kept(ContextConfig.defaults().withModel(new ContextConfig.Model(0, 0))).effectiveMax());
    }

    @Test
    default void s02_fillLevelsAndStatuses() {
        ContextConfig config = model(5000, 500).withThresholds(new ContextConfig.Thresholds(30, 50, 70));
        assertEquals(4250, config.effectiveMax());
        record Row(int steps, int tokens, String percent, String status) {
        }
        for (Row row : List.of(new Row(10, 360, "8.47", "ok"), new Row(50, 1800, "42.35", "compact"),
                new Row(80, 2880, "67.76", "warning"), new Row(100, 3601, "84.73", "emergency"))) {
            KeptContext context = kept(config);
            for (int i = 1; i <= row.steps(); i++) {
                context.addStep(step("Thought " + i + " with detailed content for testing fill levels",
                        "Observation " + i + " with detailed content for testing fill levels", i));
            }
            FillCheck fill = context.checkFill();
            assertEquals(row.tokens(), fill.used(), "steps " + row.steps());
            assertEquals(row.percent(), String.format("%.2f", fill.percent()), "steps " + row.steps());
            assertEquals(row.status(), fill.status(), "steps " + row.steps());
            assertEquals(4250, fill.max());
            assertEquals(4250 - row.tokens(), fill.available());
        }
    }

    @Test
    default void s03_rejectAndCorrection() {
        KeptContext context = kept(model(2000, 500));
        List<Step> steps = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            steps.add(step("Thought " + i + " with very long content to exceed context window capacity",
                    "Observation " + i + " with very long content to exceed context window capacity", i));
        }
        context.addSteps(steps);
        assertEquals("reject", context.checkFill().status());
        assertEquals(0, context.availableTokens());
        context.correctTokenCount(5000);
        assertEquals(5000, context.estimateTotal());
    }

    @Test
    default void s04_promptOrder() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.setSystemPrompt("You are a helpful assistant.");
        context.setTask("Complete the coding task");
        context.setPlan("Plan:\n1. First step");
        for (int i = 1; i <= 3; i++) {
            context.addStep(step("Thinking step " + i, "Observation " + i, i));
        }
        List<Message> prompt = context.buildPrompt();
        assertEquals(List.of("system", "user", "system", "assistant", "tool", "assistant", "tool", "assistant",
                "tool"), roles(prompt));
        assertEquals("You are a helpful assistant.", prompt.get(0).content());
        assertEquals("Plan:\n1. First step", prompt.get(2).content());
        assertEquals("Thinking step 1", prompt.get(3).content());
        assertEquals("Observation 1", prompt.get(4).content());
        assertEquals("call_1", prompt.get(4).toolCallId());
    }

    @Test
    default void s05_priorConversationAndNothingSet() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.setSystemPrompt("You are a helpful assistant.");
        context.setTask("implement variant a");
        context.setPriorConversation(List.of(Message.user("analyze the options"),
                Message.assistant("Options: a, b, or c. Which to implement?")));
        List<Message> prompt = context.buildPrompt();
        assertEquals(List.of("system", "user", "assistant", "user"), roles(prompt));
        assertEquals("implement variant a", prompt.get(3).content());

        KeptContext empty = new KeptContext(newKeeper(), DEFAULT_MODEL, SIMPLE, null, "");
        assertEquals(0, empty.buildPrompt().size());
    }

    @Test
    default void s06_cacheBreakSplitsTheSystemPrompt() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.setSystemPrompt("A" + Context.CACHE_BREAK + " B ");
        assertEquals("system:A | system:B", shown(context.buildPrompt()));
    }

    @Test
    default void s07_assistantContent() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.addStep(Step.thought(""));
        context.addStep(Step.thought("Some thought\u200b\u200b\u200b"));
        context.addStep(Step.tool("", new ToolCall("call_1", "test_tool", "{}"), "out"));
        context.addStep(Step.thought("   \t\n\r\u200b\u200c\u200d\ufeff  "));
        List<Message> prompt = context.buildPrompt();
        assertEquals("(proceeding)", prompt.get(1).content());
        assertEquals("Some thought", prompt.get(2).content());
        assertEquals("", prompt.get(3).content());
        assertEquals(1, prompt.get(3).toolCalls().size());
        assertEquals("(proceeding)", prompt.get(5).content());

        KeptContext grouped = kept(DEFAULT_MODEL);
        grouped.addStep(step("", "a", 1).inGroup(7));
        grouped.addStep(step("", "b", 2).inGroup(7));
        List<Message> groupPrompt = grouped.buildPrompt();
        assertEquals(List.of("system", "assistant", "tool", "tool"), roles(groupPrompt));
        assertEquals("", groupPrompt.get(1).content());
        assertEquals(2, groupPrompt.get(1).toolCalls().size());
    }

    @Test
    default void s08_nudgeOnlyStep() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.setTask("complete the task");
        context.addStep(step("step 1", "obs 1", 1));
        context.addStep(Step.nudge("switch to approach B instead"));
        List<Message> prompt = context.buildPrompt();
        assertEquals(5, prompt.size(), shown(prompt));
        assertEquals("user:switch to approach B instead", shown(prompt.subList(4, 5)));
        assertFalse(contents(prompt).contains("(proceeding)"));

        KeptContext blank = kept(DEFAULT_MODEL);
        blank.addStep(Step.thought("Valid thought").withNudge("   \t\n\r\u200b\u200c  "));
        assertEquals(List.of("system", "assistant"), roles(blank.buildPrompt()));
    }

    @Test
    default void s09_standaloneGroupStandalone() {
        KeptContext context = kept(DEFAULT_MODEL);
        context.addStep(step("standalone thought", "standalone obs", 1));
        context.addStep(tool("group thought", "group obs a", "tool_a", 2).inGroup(7));
        context.addStep(tool("", "group obs b", "tool_b", 3).inGroup(7));
        context.addStep(step("another standalone", "another obs", 4));
        List<Message> prompt = context.buildPrompt();
        assertEquals(8, prompt.size());
        assertEquals("group thought", prompt.get(3).content());
        assertEquals(2, prompt.get(3).toolCalls().size());
        assertEquals("group obs a", prompt.get(4).content());
        assertEquals("group obs b", prompt.get(5).content());
        assertEquals("another standalone", prompt.get(6).content());
    }

    @Test
    default void s23_seedingAndTheInterjection() {
        KeptContext seeded = kept(DEFAULT_MODEL);
        seeded.setTask("resume");
        seeded.setPendingInterjection("try variant B instead  ");
        List<Step> steps = List.of(step("T1", "O1", 1), step("T2", "O2", 2));
        seeded.seedSteps(steps);
        List<Message> prompt = seeded.buildPrompt();
        assertEquals(7, prompt.size(), shown(prompt));
        assertEquals(List.of("system", "user", "assistant", "tool", "assistant", "tool"), roles(prompt.subList(0, 6)));
        assertEquals("user:try variant B instead", shown(prompt.subList(6, 7)));
        assertEquals(7, seeded.buildPrompt().size(), "the interjection stays until consumed");
        seeded.consumePendingInterjection();
        assertEquals(6, seeded.buildPrompt().size());

        KeptContext added = kept(DEFAULT_MODEL);
        steps.forEach(added::addStep);
        assertEquals(added.estimateTotal(), seeded.estimateTotal());

        seeded.correctTokenCount(9999);
        seeded.seedSteps(null);
        assertEquals(0, seeded.estimateTotal());
        assertEquals(List.of("system", "user"), roles(seeded.buildPrompt()));
    }

    @Test
    default void s24_taskWithBlocks() {
        KeptContext context = kept(DEFAULT_MODEL);
        List<ContentBlock> blocks = List.of(ContentBlock.text("look at this"),
                ContentBlock.image("iVBOR", "image/png"));
        context.setTaskWithBlocks("describe the screenshot", blocks);
        Message task = context.buildPrompt().get(1);
        assertEquals("describe the screenshot", task.content());
        assertEquals(blocks, task.contentBlocks());
        context.setTask("plain now");
        Message plain = context.buildPrompt().get(1);
        assertEquals("plain now", plain.content());
        assertEquals(List.of(), plain.contentBlocks());
    }
}
