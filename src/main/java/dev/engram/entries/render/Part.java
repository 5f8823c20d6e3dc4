package dev.engram.entries.render;

import dev.engram.kernel.Scope;
import java.util.List;
import java.util.Objects;

/**
 * One piece of the rendered block, with an ID that stays the same across renders while the piece exists:
 * {@code memory} (the title), {@code memory/<scope>}, {@code memory/<scope>/<name>},
 * {@code memory/<scope>:omitted} and {@code memory:summary}.
 *
 * @param text the piece, without the blank line that separates it from the next
 */
public record Part(String id, String text) {

    /** The separator that joins parts into the block: one blank line. */
    public static final String SEPARATOR = "\n\n";
    /** The block's first part, which no write changes. */
    public static final String TITLE_ID = "memory";
    /** The block's last part, which every write changes. */
    public static final String SUMMARY_ID = "memory:summary";

    public Part {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(text, "text");
    }

    /** The ID of the part holding entry {@code scope/name}. */
    public static String entryId(Scope scope, String name) {
        return "memory/" + scope.value() + "/" + name;
    }

    static String scopeId(Scope scope) {
        return "memory/" + scope.value();
    }

    static String omittedId(Scope scope) {
        return "memory/" + scope.value() + ":omitted";
    }

    /** The block the parts compose: their texts joined with {@link #SEPARATOR}. */
    public static String join(List<Part> parts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                b.append(SEPARATOR);
            }
            b.append(parts.get(i).text);
        }
        return b.toString();
    }
}
