package dev.engram.documents.stores;

import dev.engram.documents.Written.Operation;
import java.time.Instant;

/**
 * Which versions of a store a listing holds, each filter null when not asked: of one memory, of one operation, by one
 * session, API key or service account (Engram has none, so that filter matches nothing), made within a time range.
 * Versions are listed newest first.
 */
public record VersionQuery(String memoryId, Operation operation, String sessionId, String apiKeyId,
        String serviceAccountId, Instant createdFrom, Instant createdTo) {
}
