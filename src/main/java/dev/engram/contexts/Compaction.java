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
 */
public record Compaction(List<Step> steps, List<Message> prefix, double beforePercent, ContextConfig config,
        List<Message> basisPrefix, int basisThroughIndex) {

    public Compaction {
        steps = List.copyOf(steps);
        prefix = List.copyOf(prefix);
        basisPrefix = basisPrefix == null ? null : List.copyOf(basisPrefix);
    }
}
