package dev.engram.entries;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one lost update discarded ({@link LostUpdates#discarded}): the records of its entry after the version it was
 * built on, up to the one it replaced. Their changes are gone from the entry and live only in the journal.
 *
 * @param lost the lost update
 * @param base the record of the version it was built on; empty when it was built on no version (it meant to create
 *     the entry) or when that record was not among those looked through
 * @param overwritten the records it overwrote without having seen them, oldest first; the last is the one it replaced
 * @param complete whether {@code overwritten} holds every such record: the base, or the state without the entry that
 *     a create was built on, was found
 */
public record Discarded(Change lost, Optional<Change> base, List<Change> overwritten, boolean complete) {

    public Discarded {
        Objects.requireNonNull(lost, "lost");
        Objects.requireNonNull(base, "base");
        overwritten = List.copyOf(overwritten);
    }

    /** The content the lost update was built on: its base's, or "" when it was built on no version. */
    public String baseContent() {
        return base.map(b -> b.entry().content()).orElse("");
    }

    /** The content the journal held for the entry just before the lost update: "" when it was not live. */
    public String overwrittenContent() {
        if (overwritten.isEmpty()) {
            return "";
        }
        Change last = overwritten.get(overwritten.size() - 1);
        return last.entry().deleted() ? "" : last.entry().content();
    }
}
