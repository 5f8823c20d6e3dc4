package dev.engram.console.contexts;

import dev.engram.contexts.CompactionStrategy;
import dev.engram.contexts.ContextChange;
import java.time.Instant;
import java.util.List;

/**
 * A compaction as its page shows it: the record, the strategy in words, the fill before and after, how many steps
 * the prefix stands for, which it replaced (numbered from 1, as the steps' page numbers them; {@code replacedFrom}
 * the index the steps' page starts at), who summarized, and the texts in the replaced steps' place.
 *
 * @param replacedKnown whether the record says which steps were replaced (a record written before it did does not)
 */
public record CompactionView(long seq, Instant at, String strategy, double beforePercent, double afterPercent,
        int compactedThrough, boolean replacedKnown, int replacedCount, int replacedFirst, int replacedLast,
        int replacedFrom, String summarizedBy, String summaryError, List<String> summaries) {

    /** The view of {@code c}, a change of kind {@value ContextChange#COMPACTED}. */
    static CompactionView of(ContextChange c) {
        ContextChange.Compacted k = c.compaction().orElseThrow(() -> new IllegalArgumentException(
                "record " + c.seq() + " is no compaction"));
        CompactionStrategy.Replaced r = k.replaced().orElse(CompactionStrategy.Replaced.NONE);
        String by = !k.model().isEmpty() ? "model " + k.model() + (k.summaryFailures() > 0 ? ", which failed on "
                + k.summaryFailures() + (k.summaryFailures() == 1 ? " block" : " blocks") : "")
                : k.summarized() ? "a model" : "no model";
        return new CompactionView(c.seq(), c.at(), k.strategy().replace('_', ' '), k.beforePercent(),
                k.afterPercent(), k.compactedThroughIndex(), k.replaced().isPresent(), r.count(), r.from() + 1,
                r.to(), r.from(), by, k.summaryError(), k.summaries());
    }
}
