package dev.engram.console.entries;

import dev.engram.entries.Entry;
import dev.engram.kernel.Invalid;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An entry as the console's form holds it: its content, its meta as {@code key: value} lines, and the version it was
 * read at, which the write must still find.
 */
public record Draft(String name, String content, String meta, String version) {

    /** The form of {@code e}, as read now. */
    static Draft of(Entry e) {
        return new Draft(e.name(), e.content(), EntryView.of(e).metaText(), e.version());
    }

    /**
     * The meta lines as a map: each non-blank line {@code key: value}; a line without a colon is {@link Invalid}. The
     * store's rules then check the keys and values as for every write.
     */
    Map<String, String> parsedMeta() {
        Map<String, String> parsed = new LinkedHashMap<>();
        String[] lines = meta.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 1) {
                throw new Invalid("meta-line", "meta", "Meta line " + (i + 1) + " is not key: value. Write one "
                        + "line a key, such as description: How the user likes answers.");
            }
            parsed.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return parsed;
    }
}
