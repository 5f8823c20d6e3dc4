package dev.engram.memories;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of a memory's revision history: when, by whom ({@code reflect} for a supersession, {@code archive} for an
 * archiving, else the caller's name) and what.
 */
public record Revision(Instant at, String by, String summary) {

    public Revision {
        Objects.requireNonNull(at, "at");
        by = by == null ? "" : by;
        summary = summary == null ? "" : summary;
    }
}
