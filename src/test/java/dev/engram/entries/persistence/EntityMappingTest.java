package dev.engram.entries.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Change;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.kernel.JournalRecord;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each entity written and read back against the schema Flyway made (the embedded PostgreSQL): every mapped column
 * exists, has the type the field says, and comes back as it went in, jsonb ones included.
 */
@QuarkusTest
class EntityMappingTest {

    private static final Instant AT = Instant.parse("2026-01-02T03:04:05.123456Z");

    private static String newStore() {
        String id = "mapping-" + UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> {
            StoreEntity s = new StoreEntity();
            s.id = id;
            s.seq = 7;
            s.maxEntryBytes = 4096;
            s.persist();
        });
        return id;
    }

    @Test
    void aStoreRoundTrips() {
        String id = newStore();
        StoreEntity read = QuarkusTransaction.requiringNew().call(() -> StoreEntity.<StoreEntity>findByIdOptional(id).orElseThrow());
        assertEquals(7, read.seq);
        assertEquals(4096, read.maxEntryBytes);
        assertNotNull(read.createdAt, "created_at is the database's default");
        assertTrue(read.createdAt.isAfter(Instant.now().minus(1, ChronoUnit.HOURS)));
    }

    @Test
    void anEntryRoundTrips() {
        String store = newStore();
        QuarkusTransaction.requiringNew().run(() -> {
            EntryEntity e = new EntryEntity();
            e.storeId = store;
            e.scope = "user";
            e.name = "style";
            e.content = "Short answers.\n";
            e.meta = MetaJson.write(Map.of("description", "how to answer", "ü", "ß"));
            e.hash = "sha256:abc";
            e.updated = AT;
            e.searchText = "style\nshort answers.";
            e.persist();
        });
        EntryEntity read = QuarkusTransaction.requiringNew().call(() -> EntryEntity.<EntryEntity>findById(
                new EntryEntity.Key(store, "user", "style")));
        assertEquals("Short answers.\n", read.content);
        assertEquals(Map.of("description", "how to answer", "ü", "ß"), MetaJson.parse(read.meta));
        assertEquals("sha256:abc", read.hash);
        assertEquals(AT, read.updated);
        assertEquals("style\nshort answers.", read.searchText);
        assertEquals(1, QuarkusTransaction.requiringNew().call(() -> EntryEntity.inScopes(store, java.util.List.of())
                .size()));
    }

    @Test
    void aJournalRecordAndANoteRoundTrip() {
        String store = newStore();
        QuarkusTransaction.requiringNew().run(() -> {
            JournalEntity j = new JournalEntity();
            j.storeId = store;
            j.seq = 1;
            j.scope = "user";
            j.name = "style";
            j.content = "";
            j.meta = "{}";
            j.hash = "sha256:abc";
            j.updated = AT;
            j.deleted = true;
            j.prev = "sha256:prev";
            j.replaced = "sha256:abc";
            j.session = "s1";
            j.source = "";
            j.at = AT;
            j.erasedBy = 2L;
            j.persist();
            JournalEntity n = new JournalEntity();
            n.storeId = store;
            n.seq = 2;
            n.scope = "";
            n.name = "m-1";
            n.content = "";
            n.meta = "{}";
            n.hash = "";
            n.updated = AT;
            n.prev = "";
            n.replaced = "";
            n.session = "";
            n.source = "";
            n.at = AT;
            n.erasure = MetaJson.write(Map.of("by", "ops", "reason", "a request"));
            n.kind = "memory";
            n.body = "{\"id\": \"m-1\"}";
            n.persist();
        });
        var records = QuarkusTransaction.requiringNew().call(() -> JournalEntity.after(store, 0, 10));
        assertEquals(2, records.size());
        JournalEntity entry = records.get(0);
        assertEquals(JournalEntity.ENTRY, entry.kind, "kind's default is an entry's");
        assertNull(entry.body);
        Change change = entry.change();
        assertTrue(change.entry().deleted());
        assertEquals("sha256:prev", change.prev());
        assertEquals(2, change.erased());
        assertEquals(AT, change.at());
        JournalEntity note = records.get(1);
        assertEquals("memory", note.kind);
        assertEquals(Map.of("id", "m-1"), MetaJson.parse(note.body));
        assertEquals(Map.of("by", "ops", "reason", "a request"), MetaJson.parse(note.erasure));
        assertNull(note.erasedBy);
        assertEquals("memory", assertInstanceOf(JournalRecord.MemoryNote.class, note.record()).note().kind());
    }

    @Test
    void aSessionsStateAndLogRoundTrip() {
        String store = "mapping-" + UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> {
            SessionStateEntity state = new SessionStateEntity();
            state.storeId = store;
            state.session = "s1";
            state.seq = 1;
            state.manifest = "whole manifest";
            state.hash = "sha256:m";
            state.updated = AT;
            state.persist();
            SessionManifestEntity record = new SessionManifestEntity();
            record.storeId = store;
            record.session = "s1";
            record.seq = 1;
            record.record = "a delta";
            record.hash = "sha256:m";
            record.at = AT;
            record.persist();
        });
        SessionStateEntity state = QuarkusTransaction.requiringNew().call(() -> SessionStateEntity.of(store, "s1")
                .orElseThrow());
        assertEquals(1, state.seq);
        assertEquals("whole manifest", state.manifest);
        assertEquals("sha256:m", state.hash);
        assertEquals(AT, state.updated);
        var log = QuarkusTransaction.requiringNew().call(() -> SessionManifestEntity.log(store, "s1"));
        assertEquals(1, log.size());
        assertEquals(new dev.engram.entries.render.SessionManifests.SessionRecord(1, "a delta", "sha256:m", AT),
                log.get(0).toRecord());
        assertEquals(1, QuarkusTransaction.requiringNew().call(() -> SessionStateEntity.locked(store, "s1").seq));
    }
}
