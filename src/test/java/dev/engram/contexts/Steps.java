package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Test steps shaped like the reference's: tool {@code test_tool}, input {@code {"arg": "value"}}. */
final class Steps {

    static final String INPUT = "{\"arg\": \"value\"}";

    private Steps() {
    }

    /** A tool step of {@code test_tool} with call id {@code call_<id>}. */
    static Step step(String thought, String observation, int id) {
        return tool(thought, observation, "test_tool", id);
    }

    /** A tool step of {@code tool} with call id {@code call_<id>}. */
    static Step tool(String thought, String observation, String tool, int id) {
        return Step.tool(thought, new ToolCall("call_" + id, tool, INPUT), observation);
    }

    /** {@code n} steps {@code Thought i}, {@code tool_i} (no input), {@code Observation i}, as strategy tests use. */
    static List<Step> numbered(int n) {
        List<Step> steps = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            steps.add(Step.tool("Thought " + i, new ToolCall("action_" + i, "tool_" + i, ""), "Observation " + i));
        }
        return steps;
    }

    /** A context under {@code config} with the simple counter and {@code strategy}. */
    static Context context(ContextConfig config, CompactionStrategy strategy) {
        Context context = new Context(config, TokenCounter.simple(), strategy);
        context.setSystemPrompt("System");
        return context;
    }

    /** The default configuration for a model of {@code window} tokens and a 4096 output limit. */
    static ContextConfig model(int window, int outputLimit) {
        return ContextConfig.defaults().withModel(new ContextConfig.Model(window, outputLimit))
                .withPruning(ContextConfig.Pruning.OFF);
    }

    /** Role and content of each message, for failure messages and compact assertions. */
    static String shown(List<Message> messages) {
        return messages.stream().map(m -> m.role() + ":" + m.content()).collect(Collectors.joining(" | "));
    }

    /** The roles of {@code messages}. */
    static List<String> roles(List<Message> messages) {
        return messages.stream().map(Message::role).collect(Collectors.toList());
    }

    /** The contents of {@code messages}. */
    static List<String> contents(List<Message> messages) {
        return messages.stream().map(Message::content).collect(Collectors.toList());
    }
}
