package dev.engram.kernel;

import java.util.Objects;

/**
 * A journal record of another tier than entries: a memory saved, archived or deleted, a bank's slot or settings
 * changed. It takes its seq in the store's one journal like any change; {@code body} is its JSON, as the tier wrote
 * it.
 *
 * @param kind what happened, such as {@code memory.saved}; never {@code entry}
 * @param key what it happened to within its tier, such as the memory's id
 * @param body the record's JSON object
 */
public record Note(String kind, String key, String body) {

    public Note {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(body, "body");
    }
}
