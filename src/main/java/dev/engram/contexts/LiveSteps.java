package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.messages.UntrustedContent;
import java.util.List;
import java.util.Set;

/**
 * Steps as messages the way a prompt shows them live: like {@link Transcript}, but a group always shows its
 * assistant message, reasoning items are kept, and each tool output goes through mutation, pruning and fencing,
 * in that order. A mutated output is not pruned; fencing applies to placeholders too.
 */
final class LiveSteps {

    private final List<Step> steps;
    private final Set<Integer> kept;
    private final ContextConfig config;
    private int pruned;
    private int evicted;

    LiveSteps(List<Step> steps, Set<Integer> kept, ContextConfig config) {
        this.steps = steps;
        this.kept = kept;
        this.config = config;
    }

    /** How many tool outputs the renders so far showed as the pruning placeholder. */
    int pruned() {
        return pruned;
    }

    /** How many tool outputs the renders so far showed mutated (a cache reference, the checklist note). */
    int evicted() {
        return evicted;
    }

    /** The messages of {@code steps[from:]}, with indices counted over all steps. */
    void render(int from, List<Message> into) {
        int i = from;
        while (i < steps.size()) {
            int end = Transcript.groupEnd(steps, i);
            if (steps.get(i).responseGroup() > 0) {
                group(i, end, into);
            } else {
                standalone(i, into);
            }
            i = end;
        }
    }

    private void group(int start, int end, List<Message> into) {
        Step first = steps.get(start);
        Message assistant = assistant(first);
        for (int i = start; i < end; i++) {
            if (steps.get(i).isToolStep()) {
                assistant = assistant.withCall(steps.get(i).action());
            }
        }
        into.add(proceeding(assistant));
        for (int i = start; i < end; i++) {
            if (steps.get(i).isToolStep()) {
                into.add(tool(i));
            }
        }
        nudge(steps.get(end - 1).userNudge(), into);
    }

    private void standalone(int index, List<Message> into) {
        Step step = steps.get(index);
        Message assistant = assistant(step);
        if (step.isToolStep()) {
            assistant = assistant.withCall(step.action());
        }
        boolean nudgeOnly = assistant.content().isEmpty() && step.reasoningContent().isEmpty()
                && step.reasoningItems().isEmpty() && !step.isToolStep() && Text.visible(step.userNudge());
        if (!nudgeOnly) {
            into.add(proceeding(assistant));
        }
        if (step.isToolStep()) {
            into.add(tool(index));
        }
        nudge(step.userNudge(), into);
    }

    private static Message assistant(Step step) {
        return new Message("assistant", Text.trimRight(step.thought()), List.of(), step.reasoningContent(),
                step.reasoningItems(), List.of(), "");
    }

    private static Message proceeding(Message assistant) {
        return assistant.content().isEmpty() && assistant.toolCalls().isEmpty()
                ? assistant.withContent(Transcript.PROCEEDING) : assistant;
    }

    private static void nudge(String nudge, List<Message> into) {
        if (Text.visible(nudge)) {
            into.add(Message.user(Text.trimRight(nudge)));
        }
    }

    private Message tool(int index) {
        Step step = steps.get(index);
        String observation = Transcript.observation(step);
        boolean mutated = false;
        if (!kept.contains(index)) {
            String original = observation;
            observation = HistoryMutator.apply(steps, index, observation, config.historyMutation(),
                    config.pruning());
            mutated = !observation.equals(original);
        }
        if (mutated) {
            evicted++;
        } else if (!kept.contains(index) && config.pruning().on()) {
            observation = config.pruning().placeholder();
            pruned++;
        }
        if (config.injectionDefense() && step.untrusted()) {
            observation = UntrustedContent.wrap(observation, step.action().name());
        }
        return Message.tool(step.action().id(), observation);
    }
}
