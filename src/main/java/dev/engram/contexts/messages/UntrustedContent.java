package dev.engram.contexts.messages;

import java.util.regex.Pattern;

/**
 * The fence around tool output from outside: {@code <untrusted-content source="TOOL">}, a newline, the content,
 * a newline, {@code </untrusted-content>}. Any opening or closing tag of that name inside the content (any case,
 * spaces allowed after {@code <} and {@code /}) has its {@code <} escaped to {@code &lt;}, so the content cannot
 * close the fence early. Wrapping twice is safe.
 */
public final class UntrustedContent {

    /** The tag's name. */
    public static final String TAG = "untrusted-content";

    private static final Pattern OPEN = Pattern.compile("<[\\t\\n\\f\\r ]*" + TAG,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern CLOSE = Pattern.compile("<[\\t\\n\\f\\r ]*/[\\t\\n\\f\\r ]*" + TAG,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private UntrustedContent() {
    }

    /** {@code content} fenced with {@code source} (the tool's name) as its source attribute. */
    public static String wrap(String content, String source) {
        return "<" + TAG + " source=" + quoted(Text.orEmpty(source).replace("\"", "&quot;")) + ">\n"
                + sanitize(content) + "\n</" + TAG + ">";
    }

    /** {@code content} with every {@code <} that opens a fence tag escaped to {@code &lt;}. */
    public static String sanitize(String content) {
        String opened = OPEN.matcher(Text.orEmpty(content)).replaceAll(m -> "&lt;" + escape(m.group().substring(1)));
        return CLOSE.matcher(opened).replaceAll(m -> "&lt;" + escape(m.group().substring(1)));
    }

    private static String escape(String replacement) {
        return replacement.replace("\\", "\\\\").replace("$", "\\$");
    }

    /** {@code value} in double quotes, with backslashes and control characters escaped as Go's {@code %q} does. */
    private static String quoted(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        value.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x0b -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", c));
                    } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                            || Character.getType(c) == Character.SURROGATE || !Character.isDefined(c)) {
                        out.append(c > 0xffff ? String.format("\\U%08x", c) : String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.append('"').toString();
    }
}
