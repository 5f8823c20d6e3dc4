package dev.engram.entries.render;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Each session's log of the manifests it was shown: a record (whole first, then deltas on the one before) each
 * time a render for the session moved the manifest, and nothing when it did not. This is what lets a write be
 * anchored on what the model was actually shown.
 */
public interface SessionManifests {

    /**
     * Records {@code rendered} as what {@code session} of {@code store} was shown: appends a record when its hash
     * differs from the manifest in force, and returns it; returns empty, writing nothing, when it does not.
     */
    Optional<SessionRecord> record(String store, String session, Manifest rendered);

    /** The session's records in order, and the manifest in force after them (the empty one when there are none). */
    SessionHistory history(String store, String session);

    /** The manifest in force for the session: the last one it was shown, or empty when it has none. */
    Optional<Manifest> inForce(String store, String session);

    /**
     * The record to append when {@code rendered} follows {@code inForce}, or empty when it did not move: a delta on
     * the manifest in force, or the whole record when that is no larger (always so for a session's first).
     */
    static Optional<String> next(Manifest inForce, Manifest rendered) {
        if (rendered.hash().equals(inForce.hash())) {
            return Optional.empty();
        }
        return Optional.of(rendered.recordSince(inForce));
    }

    /**
     * One record of a session's log.
     *
     * @param seq 1, 2, ... within the session
     * @param record the record's JSON, as written: whole, or a delta on the record before
     * @param hash the hash of the manifest in force after it
     */
    record SessionRecord(int seq, String record, String hash, Instant at) {
        public SessionRecord {
            Objects.requireNonNull(record, "record");
            Objects.requireNonNull(hash, "hash");
        }
    }

    /** A session's log and the manifest in force after it. */
    record SessionHistory(List<SessionRecord> records, Manifest inForce) {
        public SessionHistory {
            records = List.copyOf(records);
        }
    }
}
