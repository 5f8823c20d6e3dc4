package dev.engram.console.journal;

import dev.engram.entries.Change;
import dev.engram.entries.Discarded;
import dev.engram.entries.LostUpdates;
import dev.engram.entries.Store;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Note;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The rows of some records of one store's journal: each write with its diff from the version it replaced (the entry's
 * record before it, found on the page where the page holds it, else read in one go), each lost update with what it
 * overwrote unseen ({@link LostUpdates#discarded}), each note with its summary.
 */
final class RecordRows {

    /** The most earlier records of an entry looked through for what one lost update overwrote. */
    static final int MOST_DISCARDED = 20;

    private RecordRows() {
    }

    /**
     * The rows of {@code records}, in their order. {@code contiguous} says that the records hold every record of
     * each of their entries between the first and the last of it (a page of every record, a scope's, an entry's), so
     * that an entry's previous record on the page is the one it replaced.
     */
    static List<RecordRow> of(Store store, List<JournalRecord> records, boolean contiguous) {
        Map<Long, Change> previous = previous(store, records, contiguous);
        List<RecordRow> rows = new ArrayList<>(records.size());
        for (JournalRecord r : records) {
            rows.add(r instanceof Change c ? change(store, c, previous.get(c.seq())) : note(r));
        }
        return rows;
    }

    /** The previous record of each write that replaced a version: from the page when it is there, else read. */
    private static Map<Long, Change> previous(Store store, List<JournalRecord> records, boolean contiguous) {
        List<Change> writes = records.stream().filter(r -> r instanceof Change).map(Change.class::cast)
                .filter(c -> !c.isErasure() && !c.entry().deleted() && !c.replaced().isEmpty())
                .sorted(Comparator.comparingLong(Change::seq)).toList();
        Map<Long, Change> found = new HashMap<>();
        if (contiguous) {
            Map<String, Change> last = new HashMap<>();
            records.stream().filter(r -> r instanceof Change).map(Change.class::cast)
                    .sorted(Comparator.comparingLong(Change::seq)).forEach(c -> {
                        Change before = last.put(key(c), c);
                        if (before != null) {
                            found.put(c.seq(), before);
                        }
                    });
        }
        Collection<Change> unknown = writes.stream().filter(c -> !found.containsKey(c.seq())).toList();
        if (!unknown.isEmpty()) {
            found.putAll(store.previous(unknown));
        }
        return found;
    }

    private static RecordRow change(Store store, Change c, Change previous) {
        String scope = c.entry().scope().value();
        String name = c.entry().name();
        if (c.isErasure()) {
            String reason = c.erasure().map(e -> e.reason()).orElse("");
            return new RecordRow(c.seq(), c.at(), "erasure", "erasure", scope, name, "", c.session(), c.by(),
                    "Erased the entry's content from the journal" + (reason.isEmpty() ? "." : ": "
                    + NoteSummary.quote(reason)), null, "", null, 0);
        }
        RecordRow.Lost lost = c.forked() ? lost(LostUpdates.discarded(store, c, MOST_DISCARDED)) : null;
        if (c.entry().deleted()) {
            return new RecordRow(c.seq(), c.at(), "forgotten", "forget", scope, name, "", c.session(), c.by(),
                    "Forgot the entry; the journal keeps its last content.", null, erasedNote(c), lost, c.bytes());
        }
        String kind = c.replaced().isEmpty() ? "created" : "written";
        DiffView diff = null;
        String note;
        if (c.erased() > 0) {
            note = erasedNote(c);
        } else if (c.replaced().isEmpty()) {
            diff = DiffView.of("", c.entry().content());
            note = "";
        } else if (previous == null || previous.entry().deleted() || !previous.entry().hash().equals(c.replaced())) {
            note = "The version it replaced is not in the journal.";
        } else if (previous.erased() > 0) {
            note = "The version it replaced was erased (record " + previous.erased() + ").";
        } else {
            diff = DiffView.of(previous.entry().content(), c.entry().content());
            note = metaNote(previous, c, diff);
        }
        return new RecordRow(c.seq(), c.at(), kind, "write", scope, name, "", c.session(), c.by(), "", diff, note,
                lost, c.bytes());
    }

    private static RecordRow note(JournalRecord r) {
        Note n;
        if (r instanceof JournalRecord.MemoryNote m) {
            n = m.note();
        } else if (r instanceof JournalRecord.ContextNote x) {
            n = x.note();
        } else {
            throw new IllegalArgumentException("record " + r.seq() + " is neither an entry's record nor a note");
        }
        return new RecordRow(r.seq(), r.at(), n.kind(), "note", "", "", n.key(), "", r.by(), NoteSummary.of(n), null,
                "", null, r.bytes());
    }

    private static RecordRow.Lost lost(Discarded d) {
        List<RecordRow.Overwritten> overwritten = d.overwritten().stream().map(o -> new RecordRow.Overwritten(
                o.seq(), o.isErasure() ? "erased" : o.entry().deleted() ? "forgot it" : o.replaced().isEmpty()
                ? "created it" : "wrote it", o.session(), o.by())).toList();
        boolean erased = d.base().map(b -> b.erased() > 0).orElse(false)
                || d.overwritten().stream().anyMatch(o -> o.erased() > 0);
        boolean known = d.complete() && !erased;
        DiffView changes = known ? DiffView.of(d.baseContent(), d.overwrittenContent()) : null;
        List<String> lines = erased || d.overwrittenContent().isEmpty() ? List.of()
                : List.of(d.overwrittenContent().split("\n", -1));
        return new RecordRow.Lost(d.base().map(Change::seq).orElse(0L), overwritten, d.complete(), changes, lines);
    }

    /** What else than the content a write changed: the meta keys whose values differ. */
    private static String metaNote(Change previous, Change c, DiffView diff) {
        Map<String, String> before = previous.entry().meta();
        Map<String, String> after = c.entry().meta();
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        List<String> changed = keys.stream().filter(k -> !Objects.equals(before.get(k), after.get(k))).toList();
        String meta = changed.isEmpty() ? "" : "Meta changed: " + String.join(", ", changed) + ".";
        if (!diff.changed()) {
            return ("Content unchanged. " + meta).strip();
        }
        return meta;
    }

    private static String erasedNote(Change c) {
        return c.erased() > 0 ? "Content erased by record " + c.erased() + "." : "";
    }

    private static String key(Change c) {
        return c.entry().scope().value() + "/" + c.entry().name();
    }
}
