package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import java.util.List;

/**
 * A compaction computed but not yet landed ({@link Context#prepareCompaction}): the prefix that stands for the first
 * {@code steps.size()} steps, and what it was computed from, so that {@link Context#land} can tell whether the
 * context it lands on is still that context, or that context with steps appended since.
 *
 * @param steps the steps the prefix stands for, in order
 * @param prefix the messages standing for them, fenced as the configuration asks
 * @param beforePercent the fill when the compaction was computed
 * @param config the configuration it was computed under
 * @param basisPrefix the context's compacted prefix then, or null when it had none
 * @param basisThroughIndex how many steps that prefix stood for (0 when none)
 * @param replaced the steps the prefix shows as summaries or a note of their omission, not verbatim
 */
public record Compaction(List<Step> steps, List<Message> prefix, double beforePercent, ContextConfig config,
        List<Message> basisPrefix, int basisThroughIndex, CompactionStrategy.Replaced replaced) {

    public Compaction {
        steps = List.copyOf(steps);
        java.util.Objects.requireNonNull(replaced, "replaced");
        prefix = List.copyOf(prefix);
        basisPrefix = basisPrefix == null ? null : List.copyOf(basisPrefix);
    }

    /**
     * The texts the prefix puts in place of the replaced steps, in order: a summarizer's summaries, the fallback texts
     * that stand for them, or a note of their omission (the prefix's system messages: a step is never one).
     */
    public List<String> summaries() {
        return prefix.stream().filter(m -> m.role().equals("system")).map(Message::content).toList();
    }
}
