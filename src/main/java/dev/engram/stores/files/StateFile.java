package dev.engram.stores.files;

import dev.engram.entries.Entry;
import dev.engram.entries.Hash;
import java.util.Map;

/**
 * The reference store's cursor, {@code .state.json}: the journal's last seq, the offset after its last line, the
 * hash of its first line, and each live entry's content hash and meta hash by {@code scope/name}
 * (docs/filestore-format.md, "The cursor"). Derived: an import ignores it, and the reference rebuilds a stale one.
 */
public final class StateFile {

    private final StringBuilder entries = new StringBuilder();

    /** Adds live entry {@code e}; entries come in byte order of {@code scope/name}. */
    public void add(Entry e) {
        entries.append(entries.length() == 0 ? "" : ",");
        GoJson.quote(entries, e.scope().value() + "/" + e.name()).append(":{\"hash\":");
        GoJson.quote(entries, e.hash());
        if (!e.meta().isEmpty()) {
            entries.append(",\"meta\":");
            GoJson.quote(entries, metaHash(e.meta()));
        }
        entries.append('}');
    }

    /** The file for a journal written as {@code journal} has been, with its final newline. */
    public String text(JournalFile journal) {
        StringBuilder b = new StringBuilder(entries.length() + 160);
        b.append("{\"seq\":").append(journal.seq()).append(",\"off\":").append(journal.off()).append(",\"head\":");
        GoJson.quote(b, journal.head()).append(",\"entries\":{").append(entries).append("}}\n");
        return b.toString();
    }

    /** The content hash of {@code <key>=<value>\n} for each key in byte order. */
    static String metaHash(Map<String, String> meta) {
        StringBuilder s = new StringBuilder();
        meta.forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
        return Hash.of(s.toString());
    }
}
