package dev.engram.entries.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.ManifestEntry;
import java.util.List;

/** A manifest as JSON: the reference library's members, {@code entries} and {@code omitted}. */
public record ManifestJson(List<Item> entries, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Item> omitted) {

    /** One entry of a manifest. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Item(String scope, String name, String hash, int bytes, String reason) {

        static Item of(ManifestEntry e) {
            return new Item(e.scope().value(), e.name(), e.hash(), e.bytes(), e.reason());
        }

        ManifestEntry toEntry(String list) {
            if (scope == null || name == null) {
                throw new Invalid("manifest-entry", list, "Every manifest entry needs a scope and a name.");
            }
            return new ManifestEntry(new Scope(scope), name, hash, bytes, reason);
        }
    }

    static ManifestJson of(Manifest m) {
        return new ManifestJson(m.entries().stream().map(Item::of).toList(),
                m.omitted().stream().map(Item::of).toList());
    }

    Manifest toManifest() {
        return new Manifest(entries == null ? List.of() : entries.stream().map(i -> i.toEntry("entries")).toList(),
                omitted == null ? List.of() : omitted.stream().map(i -> i.toEntry("omitted")).toList());
    }
}
