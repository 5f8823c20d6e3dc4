package dev.engram.entries;

import java.util.Objects;

/**
 * One journal record that was not built on the state it replaced: the write landed, and what it overwrote is only
 * in the journal.
 *
 * @param change the record whose base is not what it replaced
 * @param over the hash the journal left for that entry just before the record, "" when it did not exist there
 */
public record LostUpdate(Change change, String over) {

    public LostUpdate {
        Objects.requireNonNull(change, "change");
        over = over == null ? "" : over;
    }
}
