package dev.engram.console;

import io.quarkus.qute.TemplateExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console's templates write numbers, sizes, times and the parts of a link: {@code {fmt:bytes(n)}}. */
@TemplateExtension(namespace = "fmt")
public final class ConsoleFormats {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private ConsoleFormats() {
    }

    /** A size in bytes as people read it: 512 B, 12.3 KB, 4.0 MB (powers of 1,024). */
    public static String bytes(Number size) {
        long n = size.longValue();
        if (n < 1024) {
            return n + " B";
        }
        double v = n;
        String[] units = {"KB", "MB", "GB", "TB"};
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** A count with thousands separated: 12,345. */
    public static String count(Number n) {
        return String.format(Locale.ROOT, "%,d", n.longValue());
    }

    /** A time to the second, in UTC. */
    public static String time(Instant t) {
        return t == null ? "" : TIME.format(t);
    }

    /** A time as RFC 3339, for a {@code <time datetime>}. */
    public static String iso(Instant t) {
        return t == null ? "" : t.toString();
    }

    /** {@code value} as one query parameter's value. */
    public static String q(String value) {
        return value == null ? "" : URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A share as a whole percent: 0 to 100. */
    public static long percent(Number part, Number whole) {
        return whole.longValue() <= 0 ? 0 : Math.min(100, Math.round(100.0 * part.longValue() / whole.longValue()));
    }
}
