package dev.engram.console.contexts;

import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.FillCheck;
import java.util.List;

/**
 * The fill now as a bar the page draws in SVG beside its words: the bar's length in a track of {@value #WIDTH}
 * units standing for 0 to 100%, its status's class, and a mark at each threshold. The words say the same, so the
 * bar is hidden from screen readers.
 */
public record FillGauge(int width, double filled, String css, List<Mark> marks) {

    static final int WIDTH = 400;

    /** A threshold's mark across the track. */
    public record Mark(double x, String css) {
    }

    static FillGauge of(FillCheck fill, ContextConfig.Thresholds t) {
        double filled = Math.round(Math.min(100, Math.max(0, fill.percent())) * WIDTH) / 100.0;
        return new FillGauge(WIDTH, filled, "gauge-bar " + fill.status(), List.of(
                new Mark(t.predictivePercent() * WIDTH / 100.0, "mark predictive"),
                new Mark(t.warningPercent() * WIDTH / 100.0, "mark warning"),
                new Mark(t.emergencyPercent() * WIDTH / 100.0, "mark emergency")));
    }
}
