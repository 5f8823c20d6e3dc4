package dev.engram.entries;

import dev.engram.kernel.Scope;
import dev.engram.kernel.Utf8;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One remembered thing: a kebab-case {@code name} unique within its {@code scope}, Markdown {@code content} bounded
 * by the store's limit, and {@code meta} such as a description.
 *
 * <p>{@code hash} and {@code updated} are set by the store; a caller building an entry to write uses
 * {@link #draft}, and a store ignores both on {@link Store#put}. {@code deleted} marks a tombstone in the journal,
 * whose content is then the last content the entry held; {@link Store#get} and {@link Store#list} never return one.
 *
 * @param meta keys in byte order, copied; never null
 * @param hash {@code sha256:} and the hex digest of the content, or "" on a draft
 * @param updated when the store last wrote the entry, or null on a draft
 */
public record Entry(Scope scope, String name, String content, Map<String, String> meta, String hash,
        Instant updated, boolean deleted) {

    /** The meta key the rendered block and an index show beside an entry. */
    public static final String DESCRIPTION = "description";

    public Entry {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(content, "content");
        meta = meta == null || meta.isEmpty() ? Map.of() : Collections.unmodifiableSortedMap(new TreeMap<>(meta));
        hash = hash == null ? "" : hash;
    }

    /** An entry to write: the store sets its hash and time. */
    public static Entry draft(Scope scope, String name, String content, Map<String, String> meta) {
        return new Entry(scope, name, content, meta, "", null, false);
    }

    /** The entry's description, or "". */
    public String description() {
        return meta.getOrDefault(DESCRIPTION, "");
    }

    /**
     * The entry's version ({@link Hash#version}): it changes when the content or the meta does, so a precondition
     * on it, unlike one on {@link #hash}, also fails after a change of meta alone. "" on a draft.
     */
    public String version() {
        return hash.isEmpty() ? "" : Hash.version(hash, meta);
    }

    /** The content's size in UTF-8 bytes, the number the store's bound applies to. */
    public int size() {
        return Utf8.length(content);
    }

    /** This entry as stored: the hash of its content, written at {@code at}. */
    public Entry stored(Instant at) {
        return new Entry(scope, name, content, meta, Hash.of(content), at, false);
    }

    /** The tombstone of this entry, keeping its last content, written at {@code at}. */
    public Entry tombstone(Instant at) {
        return new Entry(scope, name, content, meta, hash, at, true);
    }
}
