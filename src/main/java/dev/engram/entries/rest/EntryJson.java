package dev.engram.entries.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.entries.Entry;
import java.time.Instant;
import java.util.Map;

/**
 * An entry as JSON, the members of the reference journal line's {@code entry}: meta left out when empty,
 * {@code deleted} only on a tombstone, {@code content} always (empty on an erased record).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record EntryJson(String scope, String name, @JsonInclude(JsonInclude.Include.ALWAYS) String content,
        Map<String, String> meta, String hash,
        Instant updated, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean deleted) {

    static EntryJson of(Entry e) {
        return new EntryJson(e.scope().value(), e.name(), e.content(), e.meta(), e.hash(), e.updated(), e.deleted());
    }
}
