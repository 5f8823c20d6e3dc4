package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Steps as messages the way the compaction strategies render them: the live layout without mutation, pruning,
 * fencing or reasoning items. An assistant message with no text and no calls becomes {@code (proceeding)}, unless
 * the step (or group) carries a nudge, in which case only the nudge is shown.
 */
final class Transcript {

    static final String PROCEEDING = "(proceeding)";
    static final String NO_OUTPUT = "(no output)";

    private Transcript() {
    }

    /** The messages of {@code steps}, in order; a group of steps sharing a response group becomes one turn. */
    static List<Message> of(List<Step> steps) {
        List<Message> messages = new ArrayList<>();
        int i = 0;
        while (i < steps.size()) {
            int end = groupEnd(steps, i);
            List<Step> turn = steps.subList(i, end);
            Step first = turn.get(0);
            Message assistant = new Message("assistant", Text.trimRight(first.thought()), List.of(),
                    first.reasoningContent(), List.of(), List.of(), "");
            for (Step step : turn) {
                if (step.isToolStep()) {
                    assistant = assistant.withCall(step.action());
                }
            }
            String nudge = Text.trimRight(turn.get(turn.size() - 1).userNudge());
            if (assistant.content().isEmpty() && assistant.toolCalls().isEmpty()) {
                if (nudge.isEmpty()) {
                    messages.add(assistant.withContent(PROCEEDING));
                }
            } else {
                messages.add(assistant);
            }
            for (Step step : turn) {
                if (step.isToolStep()) {
                    messages.add(Message.tool(step.action().id(), observation(step)));
                }
            }
            if (!nudge.isEmpty()) {
                messages.add(Message.user(nudge));
            }
            i = end;
        }
        return messages;
    }

    /** The end (exclusive) of the turn starting at {@code start}: one step, or the run sharing its group above 0. */
    static int groupEnd(List<Step> steps, int start) {
        long group = steps.get(start).responseGroup();
        int end = start + 1;
        if (group > 0) {
            while (end < steps.size() && steps.get(end).responseGroup() == group) {
                end++;
            }
        }
        return end;
    }

    /** The observation trimmed at its end, or {@code (no output)} when nothing is left. */
    static String observation(Step step) {
        String observation = Text.trimRight(step.observation());
        return observation.isEmpty() ? NO_OUTPUT : observation;
    }
}
