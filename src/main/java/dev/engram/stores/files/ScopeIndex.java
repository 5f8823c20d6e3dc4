package dev.engram.stores.files;

import dev.engram.entries.Entry;

/**
 * A scope's {@code INDEX.md}, built an entry at a time in name order: the heading, a blank line, then
 * {@code - [name](name.md)} and {@code  — description} when the entry has one, or {@code No entries.} for a scope
 * with none (docs/filestore-format.md, "The index"). Derived: an import ignores it.
 */
final class ScopeIndex {

    private final StringBuilder text = new StringBuilder();
    private boolean empty = true;

    ScopeIndex(String scope) {
        text.append("# ").append(scope).append("\n\n");
    }

    void add(Entry e) {
        empty = false;
        text.append("- [").append(e.name()).append("](").append(e.name()).append(".md)");
        if (!e.description().isEmpty()) {
            text.append(" \u2014 ").append(e.description());
        }
        text.append('\n');
    }

    String text() {
        return empty ? text + "No entries.\n" : text.toString();
    }
}
