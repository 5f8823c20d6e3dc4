package dev.engram.console.contexts;

import io.quarkus.qute.TemplateExtension;

/** How the contexts pages write a fill and a change: {@code {ctx:percent(fill.percent)}}. */
@TemplateExtension(namespace = "ctx")
public final class ContextFormats {

    private ContextFormats() {
    }

    /** A percentage to a tenth: 93.8%. */
    public static String percent(double percent) {
        return FillChart.percent(percent);
    }

    /** A record's kind as words: {@code context.steps_appended} is "steps appended". */
    public static String change(String kind) {
        return FillChart.change(kind);
    }

    /** A name of the API as words: {@code sliding_window} is "sliding window". */
    public static String words(String name) {
        return name == null ? "" : name.replace('_', ' ');
    }

    /** A bar's length for {@code percent} in a track of {@code width} units (0 to 100%, clamped). */
    public static double bar(double percent, int width) {
        return Math.round(Math.min(100, Math.max(0, percent)) * width) / 100.0;
    }
}
