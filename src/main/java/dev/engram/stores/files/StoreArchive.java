package dev.engram.stores.files;

import dev.engram.entries.Change;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An archive as read and checked, before anything of it is written: its entry files by {@code scope/name}, the
 * records of its {@code journal.jsonl} in file order (damaged lines and a torn tail skipped, as the reference reads
 * them, and counted), its documents by path, and Engram's lines of memories and contexts (JSON objects, each with
 * an {@code id}).
 *
 * @param maxEntryBytes the content bound {@code _engram/store.json} names, if it does
 */
public record StoreArchive(SortedMap<String, EntryFile.Read> entries, List<Change> journal, int damagedLines,
        SortedMap<String, String> documents, List<String> memories, List<String> contexts,
        Optional<Integer> maxEntryBytes) {

    public StoreArchive {
        entries = new TreeMap<>(entries);
        journal = List.copyOf(journal);
        documents = new TreeMap<>(documents);
        memories = List.copyOf(memories);
        contexts = List.copyOf(contexts);
    }

    /** The last record of each entry in the journal, by {@code scope/name}: what the archive's store last wrote. */
    public Map<String, Change> lastRecords() {
        Map<String, Change> last = new TreeMap<>();
        for (Change c : journal) {
            last.put(c.entry().scope().value() + "/" + c.entry().name(), c);
        }
        return last;
    }
}
