package dev.engram.memories;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A bank's entrypoint: a Markdown digest of its most important memories, for a model's instructions. The header
 * names the title, the bank and when it was generated (UTC, whole seconds); each memory is a numbered section with
 * its type and importance (two decimals, ties to even, as the reference prints them) over its trimmed content.
 */
public final class Entrypoint {

    /** The title when none is given. */
    public static final String DEFAULT_TITLE = "Memory Entrypoint";
    /** How many memories when no positive number is given. */
    public static final int DEFAULT_TOP_N = 20;

    private Entrypoint() {
    }

    /** The entrypoint of {@code bankId} showing {@code memories}, already chosen and ordered. */
    public static String render(String title, String bankId, Instant generated, List<Memory> memories) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title == null || title.isEmpty() ? DEFAULT_TITLE : title).append("\n\n");
        b.append("- Scope: `").append(bankId).append("`\n");
        b.append("- Generated: ").append(generated.truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        if (memories.isEmpty()) {
            return b.append("_No memories yet._\n").toString();
        }
        int n = 1;
        for (Memory m : memories) {
            b.append("## ").append(n++).append(". [").append(m.type()).append("] ").append(twoDecimals(m.importance()))
                    .append("\n\n").append(m.content().strip()).append("\n\n");
        }
        return b.toString();
    }

    /** {@code value} to two decimals, an exact tie to the even digit: 0.125 is "0.12", 0.375 is "0.38". */
    static String twoDecimals(double value) {
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
