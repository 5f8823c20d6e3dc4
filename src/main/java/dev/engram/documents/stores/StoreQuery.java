package dev.engram.documents.stores;

import java.time.Instant;

/**
 * Which stores a listing of memory stores holds: created within a time range (each bound null when not asked), and
 * the archived ones too when {@code includeArchived}. Stores are listed newest first.
 */
public record StoreQuery(Instant createdFrom, Instant createdTo, boolean includeArchived) {
}
