package dev.engram.console;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines two texts share and those only one has, in order: what the console shows between two versions of an
 * entry. A longest common subsequence of lines, worked out over at most {@link #MOST_LINES} lines a side; two longer
 * texts are shown as one removed and the other added whole.
 */
public final class LineDiff {

    /** The most lines a side compared line by line. */
    public static final int MOST_LINES = 2_000;

    /** One line of the diff: in both texts ({@code SAME}), only the old ({@code GONE}), only the new ({@code NEW}). */
    public record Line(Kind kind, String text) {

        public String sign() {
            return switch (kind) {
                case SAME -> " ";
                case GONE -> "-";
                case NEW -> "+";
            };
        }
    }

    public enum Kind {
        SAME, GONE, NEW;

        /** The CSS class of a line of this kind. */
        public String css() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private LineDiff() {
    }

    /** The diff from {@code before} to {@code after}. */
    public static List<Line> of(String before, String after) {
        String[] a = lines(before);
        String[] b = lines(after);
        List<Line> out = new ArrayList<>();
        if (a.length > MOST_LINES || b.length > MOST_LINES) {
            for (String l : a) {
                out.add(new Line(Kind.GONE, l));
            }
            for (String l : b) {
                out.add(new Line(Kind.NEW, l));
            }
            return out;
        }
        int[][] common = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--) {
            for (int j = b.length - 1; j >= 0; j--) {
                common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            if (a[i].equals(b[j])) {
                out.add(new Line(Kind.SAME, a[i]));
                i++;
                j++;
            } else if (common[i + 1][j] >= common[i][j + 1]) {
                out.add(new Line(Kind.GONE, a[i++]));
            } else {
                out.add(new Line(Kind.NEW, b[j++]));
            }
        }
        while (i < a.length) {
            out.add(new Line(Kind.GONE, a[i++]));
        }
        while (j < b.length) {
            out.add(new Line(Kind.NEW, b[j++]));
        }
        return out;
    }

    /** Whether the diff holds any change. */
    public static boolean changed(List<Line> diff) {
        return diff.stream().anyMatch(l -> l.kind() != Kind.SAME);
    }

    private static String[] lines(String text) {
        if (text == null || text.isEmpty()) {
            return new String[0];
        }
        return text.split("\n", -1);
    }
}
