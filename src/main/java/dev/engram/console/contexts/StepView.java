package dev.engram.console.contexts;

import dev.engram.contexts.Step;
import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.List;

/**
 * A step as a context's page shows it: its number (from 1), whether the compacted prefix stands for it, the tool it
 * called, and its texts, each an agent's or a tool's (untrusted: the page escapes them), a long one to be shown
 * collapsed.
 *
 * @param compacted whether the context's compacted prefix stands for this step (the prompt no longer shows it)
 */
public record StepView(int number, boolean compacted, String tool, String callId, boolean error, boolean untrusted,
        String cacheHash, long group, int tokensUsed, List<Part> parts) {

    /** Texts longer than this many characters, or of more lines, are shown collapsed. */
    static final int LONG_CHARACTERS = 600;
    static final int LONG_LINES = 8;

    /** One text of a step: what it is ({@code Thought}, {@code Input} ...) and the text. */
    public record Part(String label, String text) {

        /** Whether the page collapses it. */
        public boolean collapsed() {
            return text.length() > LONG_CHARACTERS || lines() > LONG_LINES;
        }

        /** How many lines it has. */
        public int lines() {
            return (int) text.chars().filter(c -> c == '\n').count() + 1;
        }

        /** Its size in UTF-8 bytes. */
        public int bytes() {
            return Utf8.length(text);
        }
    }

    /** The step at {@code index} (from 0) of a context whose prefix stands for its first {@code compactedThrough}. */
    static StepView of(int index, Step s, int compactedThrough) {
        List<Part> parts = new ArrayList<>();
        add(parts, "Thought", s.thought());
        add(parts, "Reasoning", s.reasoningContent());
        if (s.isToolStep()) {
            add(parts, "Input", s.action().input());
            add(parts, "Observation", s.observation());
        }
        add(parts, "Nudge", s.userNudge());
        return new StepView(index + 1, index < compactedThrough, s.action().name(), s.action().id(), s.isError(),
                s.untrusted(), s.cacheHash(), s.responseGroup(), s.tokensUsed(), List.copyOf(parts));
    }

    private static void add(List<Part> parts, String label, String text) {
        if (!text.isEmpty()) {
            parts.add(new Part(label, text));
        }
    }
}
