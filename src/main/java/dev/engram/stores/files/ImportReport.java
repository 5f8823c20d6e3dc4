package dev.engram.stores.files;

import java.util.List;

/**
 * What an import did: the things it created, the entries and documents it changed to the archive's state
 * ({@code reconciled}, each one journal record), those already as the archive has them ({@code unchanged}), the
 * journal records it replayed into an empty store, the journal lines it skipped as the reference reader skips
 * them (damaged, or a torn tail), and the conflicts it left alone, each with its member's path.
 */
public record ImportReport(int created, int reconciled, int unchanged, int replayed, int skippedJournalLines,
        List<Conflict> conflicts) {

    public ImportReport {
        conflicts = List.copyOf(conflicts);
    }

    /** A member the import did not write, and why: a stable word and a sentence. */
    public record Conflict(String path, String reason, String detail) {
    }
}
