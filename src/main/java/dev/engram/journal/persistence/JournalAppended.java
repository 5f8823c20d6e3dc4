package dev.engram.journal.persistence;

/** A CDI event fired after a write committed: store {@code store}'s journal now reaches {@code seq}. */
public record JournalAppended(String store, long seq) {
}
