package dev.engram.entries.render;

import dev.engram.entries.Hash;
import dev.engram.kernel.Invalid;
import java.util.List;

/**
 * What a block held and what it left out, for a session's provenance: the entries in block order, and the
 * omissions in the order they would have appeared, each with its reason. Its JSON forms (the whole record, and
 * the delta on an earlier manifest) are the reference library's, so a reader of its records reads Engram's.
 */
public record Manifest(List<ManifestEntry> entries, List<ManifestEntry> omitted) {

    /** The manifest of a block that holds nothing. */
    public static final Manifest EMPTY = new Manifest(List.of(), List.of());

    public Manifest {
        entries = entries == null ? List.of() : List.copyOf(entries);
        omitted = omitted == null ? List.of() : List.copyOf(omitted);
    }

    /**
     * The manifest's identity: {@code sha256:} and the digest of every entry held and left out, in order, by scope,
     * name, content hash, size and, for an omission, reason. Two renders that showed the same memories hash the
     * same, so a product records a manifest only when its hash moved.
     */
    public String hash() {
        StringBuilder b = new StringBuilder();
        for (ManifestEntry e : entries) {
            b.append("+ ").append(e.key()).append(' ').append(e.hash()).append(' ').append(e.bytes()).append('\n');
        }
        for (ManifestEntry e : omitted) {
            b.append("- ").append(e.key()).append(' ').append(e.hash()).append(' ').append(e.bytes()).append(' ')
                    .append(e.reason()).append('\n');
        }
        return Hash.of(b.toString());
    }

    /** The whole record: {@code {"entries":[...],"omitted":[...]}}, compact. */
    public String record() {
        return RecordJson.whole(this, false);
    }

    /** The whole record indented by two spaces, as the reference golden files hold it. */
    public String recordIndented() {
        return RecordJson.whole(this, true);
    }

    /**
     * This manifest as a delta on {@code prev}: {@code base} and {@code hash}, and each list with every run of
     * prev's entries that stays in place and unchanged written as {@code {"keep":n}} and anything else written
     * whole. The whole record instead when that is no larger, or when either manifest names an entry twice in a
     * list.
     */
    public String recordSince(Manifest prev) {
        return ManifestDelta.recordSince(prev, this);
    }

    /**
     * The manifest in force after {@code record} when {@code inForce} was: a whole record is what it holds; a delta
     * is folded onto {@code inForce}. Refuses, as {@link Invalid}, a delta on another manifest (rule
     * {@code manifest-base}) and a malformed one (rule {@code manifest-record}): keeps past the end, an element that
     * is neither a positive keep nor an entry, or a result that does not hash as the delta says.
     */
    public static Manifest apply(Manifest inForce, String record) {
        ManifestDelta.Parsed parsed = ManifestDelta.parse(record);
        if (parsed.whole() != null) {
            return parsed.whole();
        }
        String have = inForce.hash();
        if (!parsed.delta().base().equals(have)) {
            throw ManifestDelta.wrongBase(parsed.delta().base(), "the manifest in force is " + have);
        }
        return parsed.delta().applyTo(inForce);
    }
}
