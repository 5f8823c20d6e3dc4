package dev.engram.documents.stores.rest;

import dev.engram.documents.Actor;
import dev.engram.documents.Document;
import dev.engram.documents.DocumentHead;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.MemoryVersion;
import dev.engram.documents.stores.StoreProfile;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of the Memory Stores API, member for member what Anthropic's SDKs read (snake_case by the REST mapper):
 * the objects answered, a page of them, and the bodies sent.
 */
public final class StoreApiJson {

    private StoreApiJson() {
    }

    /** A memory store. */
    public record MemoryStoreJson(String type, String id, String name, String description, Map<String, String> metadata,
            Instant createdAt, Instant updatedAt, Instant archivedAt) {

        static MemoryStoreJson of(StoreProfile p) {
            return new MemoryStoreJson("memory_store", MemoryStoreIds.ofStore(p.store()), p.name(), p.description(),
                    p.metadata(), p.createdAt(), p.updatedAt(), p.archivedAt());
        }
    }

    /** What a deletion answers: {@code memory_store_deleted} or {@code memory_deleted} and the id. */
    public record MemoryStoreDeletion(String type, String id) {
    }

    /**
     * An item of a listing of memories: a memory ({@code type} memory, content null in the basic view) or a
     * directory holding deeper ones ({@code type} memory_prefix, with its path alone).
     */
    public record StoreMemoryJson(String type, String id, String memoryStoreId, String path, String content,
            String contentSha256, Integer contentSizeBytes, String memoryVersionId, Instant createdAt,
            Instant updatedAt) {

        static StoreMemoryJson of(String store, Document d, boolean full) {
            return new StoreMemoryJson("memory", d.id(), MemoryStoreIds.ofStore(store), d.path(), full ? d.content() : null,
                    d.sha256(), d.size(), MemoryStoreIds.ofVersion(d.version()), d.createdAt(), d.updatedAt());
        }

        static StoreMemoryJson of(String store, DocumentHead d) {
            return new StoreMemoryJson("memory", d.id(), MemoryStoreIds.ofStore(store), d.path(), null, d.sha256(),
                    d.size(), MemoryStoreIds.ofVersion(d.version()), d.createdAt(), d.updatedAt());
        }
    }

    /** A directory of a listing at depth n, which holds memories deeper than n. */
    public record MemoryPrefixJson(String type, String path) {

        static MemoryPrefixJson of(String path) {
            return new MemoryPrefixJson("memory_prefix", path);
        }
    }

    /** One version of a memory; a redacted one has no path, content, digest or size. */
    public record MemoryVersionJson(String type, String id, String memoryId, String memoryStoreId, String operation,
            Instant createdAt, Map<String, String> createdBy, String path, String content, String contentSha256,
            Integer contentSizeBytes, Instant redactedAt, Map<String, String> redactedBy) {

        static MemoryVersionJson of(String store, MemoryVersion v, boolean full) {
            return new MemoryVersionJson("memory_version", MemoryStoreIds.ofVersion(v.seq()), v.memoryId(),
                    MemoryStoreIds.ofStore(store), v.operation().json(), v.createdAt(), actor(v.actor()), v.path(),
                    full ? v.content() : null, v.sha256(), v.size(), v.redactedAt(),
                    v.redactedBy() == null ? null : actor(v.redactedBy()));
        }
    }

    /** A page: its items, and the cursor of the next page (null at the end; never ""). */
    public record MemoryStorePage(List<Object> data, String nextPage) {
    }

    /** The body of POST /v1/memory_stores. */
    public record CreateMemoryStore(String name, String description, Map<String, String> metadata) {
    }

    /** The body of POST /v1/memory_stores/{id}: each member absent keeps what it sets; a metadata key set to null goes. */
    public record UpdateMemoryStore(String name, String description, Map<String, String> metadata) {
    }

    /** The body of POST .../memories. */
    public record CreateStoreMemory(String path, String content) {
    }

    /** The body of POST .../memories/{id}: a new path, new content, and the precondition they take. */
    public record UpdateStoreMemory(String path, String content, ContentPrecondition precondition) {
    }

    /** {@code {"type": "content_sha256", "content_sha256": "..."}}: the write lands only on that content. */
    public record ContentPrecondition(String type, String contentSha256) {
    }

    static Map<String, String> actor(Actor a) {
        Map<String, String> json = new LinkedHashMap<>();
        json.put("type", a.type());
        json.put(a.idMember(), a.id());
        return json;
    }
}
