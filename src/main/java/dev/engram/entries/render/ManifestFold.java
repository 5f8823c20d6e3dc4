package dev.engram.entries.render;

import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the manifest records of a session in order and keeps the manifest in force. Unlike
 * {@link Manifest#apply} it resolves a delta based on any of the last {@link #DEPTH} distinct manifests in force,
 * as two agents taking turns in one session record on their own last manifests. Not safe for concurrent use.
 */
public final class ManifestFold {

    /** How many distinct manifests, the one in force first, a delta's base may be. */
    public static final int DEPTH = 8;

    private final List<Manifest> recent = new ArrayList<>();
    private final List<String> hashes = new ArrayList<>();

    /** Folds {@code record}; a refused record ({@link dev.engram.kernel.Invalid}) leaves the fold as it was. */
    public void apply(String record) {
        ManifestDelta.Parsed parsed = ManifestDelta.parse(record);
        if (parsed.whole() != null) {
            push(parsed.whole(), parsed.whole().hash());
            return;
        }
        ManifestDelta.Delta d = parsed.delta();
        int i = hashes.indexOf(d.base());
        Manifest base;
        if (i >= 0) {
            base = recent.get(i);
        } else if (recent.isEmpty() && d.base().equals(Manifest.EMPTY.hash())) {
            base = Manifest.EMPTY;
        } else {
            throw ManifestDelta.wrongBase(d.base(), "it is not among the " + recent.size()
                    + " manifests last in force");
        }
        push(d.applyTo(base), d.hash());
    }

    /** The manifest in force: the empty one before any record. */
    public Manifest manifest() {
        return recent.isEmpty() ? Manifest.EMPTY : recent.get(0);
    }

    /**
     * The record of {@code m} a reader of this fold resolves with the fewest bytes: the whole record, or the delta on
     * one of the manifests the fold holds, the one in force winning a tie. The fold itself is not changed.
     */
    public String record(Manifest m) {
        if (recent.isEmpty()) {
            return m.record();
        }
        String best = m.recordSince(recent.get(0));
        for (int i = 1; i < recent.size(); i++) {
            String candidate = m.recordSince(recent.get(i));
            if (Utf8.length(candidate) < Utf8.length(best)) {
                best = candidate;
            }
        }
        return best;
    }

    private void push(Manifest m, String hash) {
        int i = hashes.indexOf(hash);
        if (i >= 0) {
            recent.remove(i);
            hashes.remove(i);
        }
        recent.add(0, m);
        hashes.add(0, hash);
        if (recent.size() > DEPTH) {
            recent.remove(DEPTH);
            hashes.remove(DEPTH);
        }
    }
}
