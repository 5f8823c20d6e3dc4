package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Text;
import java.util.List;

/**
 * Everything a {@link Context} holds besides its configuration, as a value a store can save and load: the texts,
 * the steps, the compacted prefix (with {@code compacted} false when there is none) and the tracker's two numbers.
 * Lists are copied; a prefix without {@code compacted} is ignored.
 */
public record ContextState(String systemPrompt, String task, List<ContentBlock> taskBlocks, String plan,
        List<Message> priorConversation, String pendingInterjection, List<Step> steps, boolean compacted,
        List<Message> compactedPrefix, int compactedThroughIndex, int lastKnownUsed, int pendingDelta) {

    public ContextState {
        systemPrompt = Text.orEmpty(systemPrompt);
        task = Text.orEmpty(task);
        taskBlocks = taskBlocks == null ? List.of() : List.copyOf(taskBlocks);
        plan = Text.orEmpty(plan);
        priorConversation = priorConversation == null ? List.of() : List.copyOf(priorConversation);
        pendingInterjection = Text.orEmpty(pendingInterjection);
        steps = steps == null ? List.of() : List.copyOf(steps);
        compactedPrefix = compacted && compactedPrefix != null ? List.copyOf(compactedPrefix) : List.of();
        compactedThroughIndex = compacted ? Math.max(0, Math.min(compactedThroughIndex, steps.size())) : 0;
    }

    /** The state of a new context: nothing set, no steps, a tracker at zero. */
    public static final ContextState EMPTY = new ContextState("", "", List.of(), "", List.of(), "", List.of(), false,
            List.of(), 0, 0, 0);
}
