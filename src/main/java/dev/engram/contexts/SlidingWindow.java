package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the first K and the last N steps and puts {@code [... M steps omitted ...]} between them. With K = N = 0
 * every step is omitted; a history of at most K + N steps is kept whole.
 */
final class SlidingWindow implements CompactionStrategy {

    private final int keepFirst;
    private final int keepLast;

    SlidingWindow(int keepFirst, int keepLast) {
        this.keepFirst = Math.max(0, keepFirst);
        this.keepLast = Math.max(0, keepLast);
    }

    @Override
    public List<Message> compact(List<Step> steps, int budgetTokens) {
        int n = steps.size();
        if (n <= keepFirst + keepLast) {
            return Transcript.of(steps);
        }
        List<Message> messages = new ArrayList<>(Transcript.of(steps.subList(0, keepFirst)));
        messages.add(Message.system("[... " + (n - keepFirst - keepLast) + " steps omitted ...]"));
        messages.addAll(Transcript.of(steps.subList(n - keepLast, n)));
        return messages;
    }

    @Override
    public Replaced replaced(int steps) {
        return steps <= keepFirst + keepLast ? Replaced.NONE : new Replaced(keepFirst, steps - keepLast);
    }
}
