package dev.engram.stores.files.rest;

import dev.engram.stores.files.ImportReport;
import java.util.List;

/** What an import answers: its counts, and each conflict it left alone with the member's path. */
public record ImportJson(int created, int reconciled, int unchanged, int replayed, int skippedJournalLines,
        List<ConflictJson> conflicts) {

    /** A member not written, and why: {@code reason} a stable word, {@code detail} what to do. */
    public record ConflictJson(String path, String reason, String detail) {
    }

    static ImportJson of(ImportReport r) {
        return new ImportJson(r.created(), r.reconciled(), r.unchanged(), r.replayed(), r.skippedJournalLines(),
                r.conflicts().stream().map(c -> new ConflictJson(c.path(), c.reason(), c.detail())).toList());
    }
}
