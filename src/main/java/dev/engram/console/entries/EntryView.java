package dev.engram.console.entries;

import dev.engram.console.MarkdownHtml;
import dev.engram.entries.Entry;
import dev.engram.kernel.Scope;
import java.time.Instant;
import java.util.List;

/**
 * An entry as a console page shows it: its content as sanitised HTML ({@link MarkdownHtml}) beside the text itself,
 * its meta as rows, its version and size.
 *
 * @param exists false for an entry a failed create asked for, which the store does not hold
 */
public record EntryView(String scope, String name, String content, String html, List<Meta> meta, String version,
        String hash, int size, Instant updated, String description, boolean exists) {

    /** One line of meta. */
    public record Meta(String key, String value) {
    }

    public static EntryView of(Entry e) {
        List<Meta> meta = e.meta().entrySet().stream().map(m -> new Meta(m.getKey(), m.getValue())).toList();
        return new EntryView(e.scope().value(), e.name(), e.content(), MarkdownHtml.of(e.content()), meta,
                e.version(), e.hash(), e.size(), e.updated(), e.description(), true);
    }

    /** An entry the store does not hold. */
    static EntryView absent(Scope scope, String name) {
        return new EntryView(scope.value(), name, "", "", List.of(), "", "", 0, null, "", false);
    }

    /** The meta as the edit form writes it: a {@code key: value} line each. */
    public String metaText() {
        StringBuilder b = new StringBuilder();
        for (Meta m : meta) {
            b.append(m.key()).append(": ").append(m.value()).append('\n');
        }
        return b.toString();
    }
}
