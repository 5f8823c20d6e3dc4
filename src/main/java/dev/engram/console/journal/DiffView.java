package dev.engram.console.journal;

import dev.engram.console.LineDiff;
import java.util.ArrayList;
import java.util.List;

/**
 * A diff as the journal shows it: the changed lines with {@value #CONTEXT} unchanged lines around each run of them,
 * the other unchanged lines folded into one line that counts them; folded away behind a disclosure when it is longer
 * than {@value #SHORT} lines.
 *
 * @param lines the lines shown, in order
 * @param added how many lines the newer text added
 * @param removed how many lines of the older text it removed
 * @param folded whether the page shows it closed, behind its summary
 */
public record DiffView(List<Line> lines, int added, int removed, boolean folded) {

    /** Unchanged lines shown either side of a change. */
    static final int CONTEXT = 2;
    /** The most lines a diff shows open. */
    static final int SHORT = 12;

    /**
     * One line shown: {@code css} is {@code same}, {@code gone}, {@code new} (as {@link LineDiff.Kind#css}) or
     * {@code fold} for unchanged lines left out, {@code sign} its mark.
     */
    public record Line(String css, String sign, String text) {
    }

    public DiffView {
        lines = List.copyOf(lines);
    }

    /** The diff from {@code before} to {@code after}. */
    static DiffView of(String before, String after) {
        List<LineDiff.Line> diff = LineDiff.of(before, after);
        List<Line> shown = new ArrayList<>();
        int added = 0;
        int removed = 0;
        int i = 0;
        while (i < diff.size()) {
            LineDiff.Line l = diff.get(i);
            if (l.kind() != LineDiff.Kind.SAME) {
                added += l.kind() == LineDiff.Kind.NEW ? 1 : 0;
                removed += l.kind() == LineDiff.Kind.GONE ? 1 : 0;
                shown.add(new Line(l.kind().css(), l.sign(), l.text()));
                i++;
                continue;
            }
            int end = i;
            while (end < diff.size() && diff.get(end).kind() == LineDiff.Kind.SAME) {
                end++;
            }
            int keepHead = i == 0 ? 0 : CONTEXT;
            int keepTail = end == diff.size() ? 0 : CONTEXT;
            if (end - i <= keepHead + keepTail + 1) {
                keepHead = end - i;
                keepTail = 0;
            }
            for (int k = i; k < i + keepHead; k++) {
                shown.add(same(diff.get(k)));
            }
            int folded = end - i - keepHead - keepTail;
            if (folded > 0) {
                shown.add(new Line("fold", "⋯", folded == 1 ? "1 unchanged line" : folded + " unchanged lines"));
            }
            for (int k = end - keepTail; k < end; k++) {
                shown.add(same(diff.get(k)));
            }
            i = end;
        }
        return new DiffView(shown, added, removed, shown.size() > SHORT);
    }

    /** Whether the two texts differ at all. */
    public boolean changed() {
        return added > 0 || removed > 0;
    }

    private static Line same(LineDiff.Line l) {
        return new Line(l.kind().css(), l.sign(), l.text());
    }
}
