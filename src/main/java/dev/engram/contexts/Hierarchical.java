package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;

/**
 * Three zones by share of the steps: the distant (oldest) zone summarized in blocks of 15 with observations cut to
 * 60%, the middle zone in blocks of 5, the recent zone verbatim. At most 5 steps are kept whole. Without a
 * summarizer a block becomes {@code [Z zone: K steps summarized]}; on failure {@code ... (error: ERR)]}. The blocks of
 * both zones go to the summarizer in one {@link Summarizer#summarizeEach}, which may ask for them at once; their
 * order in the result is the steps' order whatever the order they were answered in.
 */
final class Hierarchical implements CompactionStrategy {

    static final int DISTANT_BLOCK = 15;
    static final int MIDDLE_BLOCK = 5;
    /** A history of at most this many steps is kept whole. */
    static final int KEPT_WHOLE = 5;

    private final double distant;
    private final double middle;
    private final double recent;
    private final Summarizing summarizing;

    Hierarchical(double distant, double middle, double recent, int observationTruncate, Summarizer summarizer,
            TokenCounter counter, int maxSummarizeTokens) {
        double d = usable(distant) ? distant : StrategySettings.DEFAULT_DISTANT;
        double m = usable(middle) ? middle : StrategySettings.DEFAULT_MIDDLE;
        double r = usable(recent) ? recent : StrategySettings.DEFAULT_RECENT;
        double total = d + m + r;
        if (total != 1.0) {
            d /= total;
            m /= total;
            r /= total;
        }
        this.distant = d;
        this.middle = m;
        this.recent = r;
        this.summarizing = new Summarizing(observationTruncate, summarizer, counter, maxSummarizeTokens);
    }

    private static boolean usable(double ratio) {
        return Double.isFinite(ratio) && ratio > 0;
    }

    @Override
    public List<Message> compact(List<Step> steps, int budgetTokens) {
        int n = steps.size();
        if (n <= KEPT_WHOLE) {
            return Transcript.of(steps);
        }
        int[] zones = zones(n);
        List<Block> blocks = new ArrayList<>();
        blocks(steps.subList(0, zones[0]), "distant", DISTANT_BLOCK, blocks);
        blocks(steps.subList(zones[0], zones[1]), "middle", MIDDLE_BLOCK, blocks);
        List<Summarizer.Answer> answers = summarizing.answers(blocks.stream().map(Block::text).toList());
        List<Message> messages = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
            messages.add(Message.system(summary(answers.get(b), blocks.get(b))));
        }
        messages.addAll(Transcript.of(steps.subList(zones[1], n)));
        return messages;
    }

    @Override
    public Replaced replaced(int steps) {
        return steps <= KEPT_WHOLE ? Replaced.NONE : new Replaced(0, zones(steps)[1]);
    }

    /** One block of a zone: the zone's name, how many steps, and the text the summarizer is sent. */
    private record Block(String zone, int size, String text) {
    }

    /** The ends of the distant and middle zones for {@code n} steps, with the reference's rounding and clamps. */
    int[] zones(int n) {
        int distantEnd = (int) (n * distant);
        int middleEnd = (int) (n * (distant + middle));
        if (distantEnd < 1 && n > 3) {
            distantEnd = 1;
        }
        if (middleEnd <= distantEnd && n > distantEnd + 1) {
            middleEnd = distantEnd + 1;
        }
        if (middleEnd >= n) {
            middleEnd = n - 1;
        }
        if (distantEnd > middleEnd) {
            distantEnd = middleEnd;
        }
        return new int[] {distantEnd, middleEnd};
    }

    private void blocks(List<Step> steps, String zone, int blockSize, List<Block> into) {
        for (int start = 0; start < steps.size(); start += blockSize) {
            List<Step> block = steps.subList(start, Math.min(start + blockSize, steps.size()));
            into.add(new Block(zone, block.size(),
                    summarizing.capped(blockText(block, zone))));
        }
    }

    /** A block's message: the summary, or the fallback text without a summarizer (a null answer) or on failure. */
    private static String summary(Summarizer.Answer answer, Block block) {
        if (answer == null) {
            return "[" + block.zone() + " zone: " + block.size() + " steps summarized]";
        }
        if (answer.failed()) {
            return "[" + block.zone() + " zone: " + block.size() + " steps summarized (error: "
                    + SummaryText.reason(answer.failure()) + ")]";
        }
        return answer.summary();
    }

    /** The header, then per step {@code \nStep i:} and its thought, action and observation lines; no final newline. */
    String blockText(List<Step> block, String zone) {
        StringBuilder text = new StringBuilder("Summarize the following ").append(block.size())
                .append(" steps from the ").append(zone).append(" zone:");
        int truncate = summarizing.observationTruncate();
        int cap = zone.equals("middle") ? truncate : truncate * 6 / 10;
        for (int i = 0; i < block.size(); i++) {
            Step step = block.get(i);
            text.append("\nStep ").append(i + 1).append(':');
            if (!step.thought().isEmpty()) {
                text.append("\n  Thought: ").append(step.thought());
            }
            if (!step.action().name().isEmpty()) {
                text.append("\n  Action: ").append(step.action().name());
            }
            if (!step.observation().isEmpty()) {
                text.append("\n  Observation: ").append(SummaryText.observation(step, cap));
            }
        }
        return text.toString();
    }
}
