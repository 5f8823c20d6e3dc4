package dev.engram.console.contexts;

import dev.engram.contexts.ContextChange;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.FillCheck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A context's fill over its last changes as a chart the page draws in SVG, with no script: a point per change whose
 * record carries its fill (a compaction's marked), the line through them, the three thresholds as lines, and the
 * same numbers as rows of a table for whoever does not see the chart. Every coordinate is computed here; the
 * template only places them.
 *
 * @param line the points of the polyline through the points, as SVG writes them
 * @param summary what the chart shows, in a sentence: its text alternative
 */
public record FillChart(int width, int height, int left, int right, int bottom, List<Point> points, String line,
        List<Rule> thresholds, List<Tick> ticks, List<Label> axis, List<Row> rows, String summary) {

    /** The most changes the chart shows: the last ones. */
    public static final int MOST_CHANGES = 100;

    static final int WIDTH = 900;
    static final int HEIGHT = 260;
    static final int LEFT = 48;
    static final int RIGHT = 120;
    static final int TOP = 14;
    static final int BOTTOM = 30;

    /** A change's point: where it is, its classes and what it says on hover. */
    public record Point(double x, double y, String css, String label) {
    }

    /**
     * A threshold's line across the chart at {@code y}, and its label at the right, at {@code x}, {@code textY};
     * {@code level} is the threshold's name (predictive, warning, emergency), a class of both.
     */
    public record Rule(double y, double x, double textY, String level, String label) {
    }

    /** A mark of the fill axis at {@code y}, and its label left of the axis at {@code x}, {@code textY}. */
    public record Tick(double y, double x, double textY, String label) {
    }

    /** A label under the chart: which record a point is; {@code anchor} start, middle or end. */
    public record Label(double x, double y, String anchor, String text) {
    }

    /** One change as the table shows it; {@code percent} "" when its record carries no fill. */
    public record Row(long seq, String change, Instant at, String percent, String tokens, String status) {
    }

    /** The chart of {@code changes}, oldest first, against {@code thresholds}. */
    static FillChart of(List<ContextChange> changes, ContextConfig.Thresholds thresholds) {
        List<ContextChange> filled = changes.stream().filter(c -> c.fill().isPresent()).toList();
        double highest = filled.stream().mapToDouble(c -> c.fill().get().percent()).max().orElse(0);
        double top = Math.max(100, Math.ceil(highest / 25) * 25);
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        List<Point> points = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < filled.size(); i++) {
            ContextChange c = filled.get(i);
            FillCheck f = c.fill().get();
            double x = LEFT + (filled.size() == 1 ? plotWidth / 2 : plotWidth * i / (filled.size() - 1));
            double y = y(Math.max(0, f.percent()), top, plotHeight);
            boolean compaction = c.kind().equals(ContextChange.COMPACTED);
            points.add(new Point(round(x), round(y), "point " + f.status() + (compaction ? " compaction" : ""),
                    "Record " + c.seq() + ", " + change(c.kind()) + ": " + percent(f.percent()) + " full, "
                            + f.status()));
            line.append(line.isEmpty() ? "" : " ").append(round(x)).append(',').append(round(y));
        }
        List<Rule> rules = new ArrayList<>();
        rule(rules, thresholds.predictivePercent(), "predictive", "compact", top, plotHeight);
        rule(rules, thresholds.warningPercent(), "warning", "warning", top, plotHeight);
        rule(rules, thresholds.emergencyPercent(), "emergency", "emergency", top, plotHeight);
        List<Tick> ticks = new ArrayList<>();
        for (double t = 0; t <= top; t += top > 100 ? 50 : 25) {
            double y = round(y(t, top, plotHeight));
            ticks.add(new Tick(y, LEFT - 6, y + 4, (long) t + "%"));
        }
        List<Label> axis = new ArrayList<>();
        if (!points.isEmpty()) {
            double below = HEIGHT - BOTTOM + 18;
            axis.add(new Label(points.get(0).x(), below, points.size() == 1 ? "middle" : "start",
                    "record " + filled.get(0).seq()));
            if (points.size() > 1) {
                axis.add(new Label(points.get(points.size() - 1).x(), below, "end",
                        "record " + filled.get(filled.size() - 1).seq()));
            }
        }
        List<Row> rows = changes.stream().map(FillChart::row).toList();
        return new FillChart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, points, line.toString(),
                List.copyOf(rules), List.copyOf(ticks), List.copyOf(axis), rows, summary(filled, thresholds));
    }

    /**
     * The line of a threshold at {@code percent}, labelled {@code name}; its label moves down (or up at the chart's
     * top) when it would overlap the one above it, as thresholds 92 and 98 are close.
     */
    private static void rule(List<Rule> rules, int percent, String css, String name, double top, double plotHeight) {
        double y = round(y(percent, top, plotHeight));
        double textY = y + 4;
        if (!rules.isEmpty()) {
            double above = rules.get(rules.size() - 1).textY();
            textY = Math.min(textY, above - 12);
        }
        rules.add(new Rule(y, WIDTH - RIGHT + 6, Math.max(TOP - 2, textY), css, name + " " + percent + "%"));
    }

    private static double y(double percent, double top, double plotHeight) {
        return TOP + plotHeight * (1 - Math.min(percent, top) / top);
    }

    private static Row row(ContextChange c) {
        return c.fill().map(f -> new Row(c.seq(), change(c.kind()), c.at(), percent(f.percent()),
                String.format(Locale.ROOT, "%,d of %,d", f.used(), f.max()), f.status()))
                .orElseGet(() -> new Row(c.seq(), change(c.kind()), c.at(), "", "", ""));
    }

    private static String summary(List<ContextChange> filled, ContextConfig.Thresholds t) {
        String lines = " The lines mark the thresholds: compact at " + t.predictivePercent() + "%, warning at "
                + t.warningPercent() + "%, emergency at " + t.emergencyPercent() + "%.";
        if (filled.isEmpty()) {
            return "No change of this context records its fill yet." + lines;
        }
        FillCheck first = filled.get(0).fill().get();
        FillCheck last = filled.get(filled.size() - 1).fill().get();
        double highest = filled.stream().mapToDouble(c -> c.fill().get().percent()).max().orElse(0);
        return "The fill after each of the last " + filled.size() + (filled.size() == 1 ? " change" : " changes")
                + ": from " + percent(first.percent()) + " to " + percent(last.percent()) + ", at most "
                + percent(highest) + "." + lines;
    }

    /** A record's kind as words: {@code context.steps_appended} is {@code steps appended}. */
    static String change(String kind) {
        return kind.replaceFirst("^context\\.", "").replace('_', ' ');
    }

    /** A percentage to a tenth: {@code 93.8%}. */
    static String percent(double percent) {
        return String.format(Locale.ROOT, "%.1f%%", percent);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
