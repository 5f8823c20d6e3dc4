package dev.engram.stores.files;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.entries.Hash;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Invalid;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an import writes of an archive's entries, decided before anything is written (docs/export-format.md,
 * "Import"). Into a store whose journal holds no entry's record, the archive's journal is replayed record for
 * record (sessions, sources, times and hashes kept), the entry files matching the journal's last state become
 * live as they are (with the time their frontmatter names, which a person's edit does not move), and a file that differs from it, or a live entry without a file, is recorded as the reference
 * {@code Reconcile} records it: a record with {@code source} {@code reconciled} and no session. Into a store with
 * entries it reconciles: an entry file that differs from the live entry becomes one reconciled write, one absent
 * from the store a reconciled create, one equal to it nothing, and one whose entry the store changed since the
 * archive's journal last recorded it a conflict, left alone.
 */
public final class ImportPlan {

    /** The source of a record the import found rather than a writer wrote, as the reference names it. */
    public static final String RECONCILED = "reconciled";

    /** One write of the plan, in order. */
    public sealed interface Step permits Append, Write, Live {
    }

    /** A record of the archive's journal appended as it is; the live entries are not touched. */
    public record Append(Change record) implements Step {
    }

    /** A record appended and its entry made live (or, for a tombstone, removed). */
    public record Write(Change record) implements Step {
    }

    /** An entry made live as the journal's last record left it, with no record of its own. */
    public record Live(Entry entry) implements Step {
    }

    /** What the store holds of an entry: its version ({@link Entry#version}). */
    public record Held(String hash, String version) {
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<ImportReport.Conflict> conflicts = new ArrayList<>();
    private int created;
    private int reconciled;
    private int unchanged;
    private int replayed;

    private ImportPlan() {
    }

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The report of this plan once written, with the counts of the other things the import wrote. */
    public ImportReport report(StoreArchive archive, int otherCreated, int otherReconciled, int otherUnchanged,
            List<ImportReport.Conflict> otherConflicts) {
        List<ImportReport.Conflict> all = new ArrayList<>(conflicts);
        all.addAll(otherConflicts);
        return new ImportReport(created + otherCreated, reconciled + otherReconciled, unchanged + otherUnchanged,
                replayed, archive.damagedLines(), all);
    }

    /**
     * The plan for {@code archive}'s entries against the store's live entries {@code live} (by {@code scope/name});
     * {@code replay} when the store's journal holds no entry's record. {@code now} times the reconciled records.
     */
    public static ImportPlan of(StoreArchive archive, Map<String, Held> live, boolean replay, Instant now) {
        checkJournal(archive);
        ImportPlan plan = new ImportPlan();
        Map<String, Change> last = archive.lastRecords();
        if (replay) {
            plan.replay(archive, last, now);
        } else {
            plan.reconcile(archive, live, last, now);
        }
        return plan;
    }

    private void replay(StoreArchive archive, Map<String, Change> last, Instant now) {
        for (Change c : archive.journal()) {
            steps.add(new Append(c));
            replayed++;
        }
        archive.entries().forEach((key, file) -> {
            Change l = last.get(key);
            Entry e = file.draft();
            boolean live = l != null && !l.entry().deleted();
            if (live && sameVersion(l.entry(), e)) {
                Entry r = l.entry();
                Instant written = file.updated().orElse(r.updated());
                steps.add(new Live(new Entry(r.scope(), r.name(), r.content(), r.meta(), r.hash(), written, false)));
            } else {
                String held = live ? l.entry().hash() : "";
                steps.add(new Write(new Change(0, e.stored(now), held, held, "", RECONCILED, now)));
                reconciled += live ? 1 : 0;
            }
            created++;
        });
        last.forEach((key, l) -> {
            if (!l.entry().deleted() && !archive.entries().containsKey(key)) {
                String held = l.entry().hash();
                steps.add(new Write(new Change(0, l.entry().tombstone(now), held, held, "", RECONCILED, now)));
                reconciled++;
            }
        });
    }

    private void reconcile(StoreArchive archive, Map<String, Held> live, Map<String, Change> last, Instant now) {
        archive.entries().forEach((key, file) -> {
            Entry e = file.draft();
            Held held = live.get(key);
            String version = Hash.version(Hash.of(e.content()), e.meta());
            if (held != null && held.version().equals(version)) {
                unchanged++;
                return;
            }
            if (held == null) {
                steps.add(new Write(new Change(0, e.stored(now), "", "", "", RECONCILED, now)));
                created++;
                return;
            }
            Change l = last.get(key);
            if (l != null && (l.entry().deleted() || !l.entry().version().equals(held.version()))) {
                conflicts.add(new ImportReport.Conflict(Layout.entry(e.scope().value(), e.name()), "store-moved-on",
                        "The store changed " + key + " after the archive's journal last recorded it (seq "
                                + l.seq() + "); read the entry, merge by hand, and import again."));
                return;
            }
            steps.add(new Write(new Change(0, e.stored(now), held.hash(), held.hash(), "", RECONCILED, now)));
            reconciled++;
        });
    }

    private static boolean sameVersion(Entry recorded, Entry file) {
        return recorded.hash().equals(Hash.of(file.content())) && recorded.meta().equals(file.meta());
    }

    /** Every record of the journal must hold an entry the store could hold, with its content's hash. */
    private static void checkJournal(StoreArchive archive) {
        for (Change c : archive.journal()) {
            Entry e = c.entry();
            String where = Layout.JOURNAL + " seq " + c.seq();
            if (e.content().isEmpty()) {
                continue; // an erased record keeps only its hash
            }
            if (!e.hash().equals(Hash.of(e.content()))) {
                throw ArchiveRefused.invalid(Layout.JOURNAL, "journal-hash", where + " has a hash that is not its "
                        + "content's; a record's entry.hash is sha256: and the hex digest of entry.content.");
            }
            try {
                EntryRules.checkShape(e);
            } catch (Invalid i) {
                throw ArchiveRefused.invalid(Layout.JOURNAL, i.rule(), where + ": " + i.getMessage());
            }
        }
    }

    /** Refuses an entry file whose content is over {@code limit}, the bound of the store it goes into. */
    public static void checkSizes(StoreArchive archive, int limit) {
        archive.entries().forEach((key, file) -> {
            int size = file.draft().size();
            if (size > limit) {
                String path = Layout.entry(file.draft().scope().value(), file.draft().name());
                throw ArchiveRefused.tooLarge(path, "entry-size", limit, size, "Entry file " + path + " holds "
                        + size + " bytes of content, over the store's limit of " + limit + " bytes; trim or split it"
                        + ", or raise the store's max_entry_bytes first.");
            }
        });
    }
}
