package dev.engram.entries;

/**
 * What a store's render is made of, short of the entries themselves: the version of its live entries, which every
 * change of one moves on, and its entry bound. Two listings with one stamp hold the same entries under the same
 * bound, so they render the same bytes.
 *
 * @param version the store's entries version (0 before its first change of an entry)
 * @param maxEntryBytes the store's entry bound, which the render's omission texts name
 */
public record EntriesStamp(long version, int maxEntryBytes) {
}
