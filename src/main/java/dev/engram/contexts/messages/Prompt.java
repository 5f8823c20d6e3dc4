package dev.engram.contexts.messages;

import java.util.List;

/**
 * A prompt as {@link Context#assemblePrompt} built it: its messages, and how many live tool outputs it showed pruned
 * (the placeholder) and evicted (a cache reference or the checklist note) instead of their text. Outputs inside a
 * compacted prefix are not counted: the prefix was built once, when it was compacted.
 */
public record Prompt(List<Message> messages, int prunedOutputs, int evictedOutputs) {

    public Prompt {
        messages = List.copyOf(messages);
    }
}
