package dev.engram.entries;

import java.util.Objects;

/** A write that landed now: {@link #change} is the record it appended. */
public record Landed(Change change) implements Written {

    public Landed {
        Objects.requireNonNull(change, "change");
    }
}
