package dev.engram.entries.render;

import java.util.List;

/** A rendered block as its parts, with the manifest of what it holds and left out. */
public record Rendered(List<Part> parts, Manifest manifest) {

    public Rendered {
        parts = List.copyOf(parts);
    }

    /** The block: the parts joined with {@link Part#SEPARATOR}. */
    public String block() {
        return Part.join(parts);
    }
}
