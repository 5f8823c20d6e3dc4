package dev.engram.contexts;

import java.util.List;

/**
 * How full a context is: {@code used} of {@code max} tokens (the effective maximum) as a percentage, the tokens
 * still {@code available} (never below 0), and a {@code status}: {@code ok}, {@code compact}, {@code warning},
 * {@code emergency} or {@code reject} (at 100% or more, and whenever the effective maximum is 0 or less).
 */
public record FillCheck(double percent, String status, int used, int max, int available) {

    /** The statuses, from empty to full. */
    public static final List<String> STATUSES = List.of("ok", "compact", "warning", "emergency", "reject");

    /** The fill of {@code used} tokens against {@code max} under {@code thresholds}. */
    static FillCheck of(int used, int max, ContextConfig.Thresholds thresholds) {
        int available = Math.max(0, max - used);
        if (max <= 0) {
            return new FillCheck(100, "reject", used, max, available);
        }
        double percent = (double) used / (double) max * 100;
        String status;
        if (percent >= 100) {
            status = "reject";
        } else if (percent >= thresholds.emergencyPercent()) {
            status = "emergency";
        } else if (percent >= thresholds.warningPercent()) {
            status = "warning";
        } else if (percent >= thresholds.predictivePercent()) {
            status = "compact";
        } else {
            status = "ok";
        }
        return new FillCheck(percent, status, used, max, available);
    }
}
