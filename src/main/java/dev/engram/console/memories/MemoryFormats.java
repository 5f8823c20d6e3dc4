package dev.engram.console.memories;

import io.quarkus.qute.TemplateExtension;
import java.util.Locale;

/** How the memories' pages write scores and the parts of a ranking: {@code {mem:score(x)}}. */
@TemplateExtension(namespace = "mem")
public final class MemoryFormats {

    private MemoryFormats() {
    }

    /** A score or a part of one to three decimals: 0.634; "none" for null. */
    public static String score(Number value) {
        return value == null ? "none" : String.format(Locale.ROOT, "%.3f", value.doubleValue());
    }

    /** A share from 0 to 1 as a whole percent from 0 to 100, for a bar's width; 0 for null. */
    public static long share(Number value) {
        return value == null ? 0 : Math.round(100 * Math.max(0, Math.min(1, value.doubleValue())));
    }
}
