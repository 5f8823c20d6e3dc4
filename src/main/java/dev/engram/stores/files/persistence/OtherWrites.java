package dev.engram.stores.files.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.documents.Actor;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Sha256;
import dev.engram.kernel.Utf8;
import dev.engram.ops.EngramConfig;
import dev.engram.persistence.Sql;
import dev.engram.stores.files.ImportReport;
import dev.engram.stores.files.Layout;
import dev.engram.stores.files.StoreArchive;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The documents, memories and contexts of an archive written in the import's transaction. A document at a path
 * the store holds is changed to the archive's content (reconciled), one at a free path created, one whose path
 * collides with another document's (at, under or above it) left alone as a conflict; a memory or a context the
 * store lacks is created, one it holds as the archive has it is unchanged, one it holds otherwise a conflict.
 */
final class OtherWrites {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String ANSWER = "select w.seq from ";

    int created;
    int reconciled;
    int unchanged;
    long lastSeq;
    final List<ImportReport.Conflict> conflicts = new ArrayList<>();

    private final Sql.Tx tx;
    private final String store;
    private final EngramConfig config;
    private final ObjectMapper mapper;
    private final Instant now;

    OtherWrites(Sql.Tx tx, String store, EngramConfig config, ObjectMapper mapper, Instant now) {
        this.tx = tx;
        this.store = store;
        this.config = config;
        this.mapper = mapper;
        this.now = now;
    }

    void documents(StoreArchive archive, Actor actor) throws SQLException {
        for (Map.Entry<String, String> d : archive.documents().entrySet()) {
            document(d.getKey(), d.getValue(), actor);
        }
    }

    private void document(String path, String content, Actor actor) throws SQLException {
        Optional<String[]> held = tx.first("select id, sha256 from document where store_id = ? and path = ?",
                r -> new String[] {r.getString(1), r.getString(2)}, store, path);
        String sha = Sha256.hex(content);
        if (held.isPresent() && held.get()[1].equals(sha)) {
            unchanged++;
            return;
        }
        Savepoint before = tx.connection().setSavepoint();
        try {
            if (held.isPresent()) {
                lastSeq = tx.one(ANSWER + "engram_document_update(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) w",
                        r -> r.getLong(1), store, held.get()[0], null, content, sha, Utf8.length(content), null,
                        record("modified", actor), now);
                reconciled++;
            } else {
                lastSeq = tx.one(ANSWER + "engram_document_create(?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) w",
                        r -> r.getLong(1), store, config.defaultMaxEntryBytes(), config.limits().documentsPerStore(),
                        newId(), path, content, sha, Utf8.length(content), record("created", actor), now);
                created++;
            }
            tx.connection().releaseSavepoint(before);
        } catch (SQLException e) {
            tx.connection().rollback(before);
            String member = Layout.document(path);
            if ("EG409".equals(e.getSQLState())) {
                conflicts.add(new ImportReport.Conflict(member, "path-taken", "Another document of the store is at "
                        + path + ", under it or above it; move one of them and import again."));
                return;
            }
            if ("EG429".equals(e.getSQLState())) {
                throw ArchiveRefused.tooLarge(member, "documents-per-store", config.limits().documentsPerStore(), -1,
                        "The store would hold more than " + config.limits().documentsPerStore() + " documents.");
            }
            if ("EG423".equals(e.getSQLState())) {
                throw ArchiveRefused.invalid(member, "store-archived", "The store is archived: it takes no writes.");
            }
            throw e;
        }
    }

    private String record(String operation, Actor actor) {
        ObjectNode r = mapper.createObjectNode();
        r.put("operation", operation);
        ObjectNode a = r.putObject("actor");
        a.put("type", actor.type());
        a.put(actor.idMember(), actor.id());
        return r.toString();
    }

    private static String newId() {
        StringBuilder b = new StringBuilder("mem_");
        for (int i = 0; i < 24; i++) {
            b.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
        }
        return b.toString();
    }

    /** The memories and contexts; one note in the journal lists those created. */
    void memoriesAndContexts(StoreArchive archive) throws SQLException {
        ArrayNode memories = mapper.createArrayNode();
        ArrayNode contexts = mapper.createArrayNode();
        int line = 0;
        for (String m : archive.memories()) {
            line++;
            String id = id(m);
            Optional<Boolean> same = tx.first("select (to_jsonb(m) - 'store_id' - 'change' - 'made') = ?::jsonb "
                    + "from memory m where m.store_id = ? and m.id = ?", r -> r.getBoolean(1), m, store, id);
            if (same.isPresent()) {
                count(same.get(), Layout.MEMORIES, id, "memory");
                continue;
            }
            row(Layout.MEMORIES, line, () -> tx.update("insert into memory select (jsonb_populate_record("
                    + "null::memory, ?::jsonb || jsonb_build_object('store_id', ?::text, 'change', 0, 'made', 0))).*",
                    m, store));
            memories.add(id);
        }
        line = 0;
        for (String c : archive.contexts()) {
            line++;
            String id = id(c);
            Optional<Boolean> same = Contexts.same(tx, store, id, c);
            if (same.isPresent()) {
                count(same.get(), Layout.CONTEXTS, id, "context");
                continue;
            }
            row(Layout.CONTEXTS, line, () -> Contexts.insert(tx, store, id, c));
            contexts.add(id);
        }
        if (memories.isEmpty() && contexts.isEmpty()) {
            return;
        }
        int most = config.limits().memoriesPerStore();
        long held = tx.one("update store set memories = memories + ? where id = ? returning memories",
                r -> r.getLong(1), memories.size(), store);
        if (most > 0 && held > most) {
            throw ArchiveRefused.tooLarge(Layout.MEMORIES, "memories-per-store", most, held, "The store would hold "
                    + held + " memories, over its limit of " + most + ".");
        }
        created += memories.size() + contexts.size();
        ObjectNode note = mapper.createObjectNode();
        note.set("memories", memories);
        note.set("contexts", contexts);
        lastSeq = tx.one(dev.engram.journal.persistence.JournalNotes.APPEND, r -> r.getLong(1), store,
                "store.imported", "import", now, note.toString(), dev.engram.journal.persistence.JournalWriter.current());
    }

    private void count(boolean same, String member, String id, String what) {
        if (same) {
            unchanged++;
        } else {
            conflicts.add(new ImportReport.Conflict(member + "#" + id, what + "-differs", "The store holds " + what
                    + " " + id + " otherwise than the archive; it was left as the store holds it."));
        }
    }

    @FunctionalInterface
    private interface Insert {
        void run() throws SQLException;
    }

    /** Runs an insert of a row the archive gave; a row PostgreSQL refuses refuses the archive. */
    private void row(String member, int line, Insert insert) throws SQLException {
        try {
            insert.run();
        } catch (SQLException e) {
            if (e.getSQLState() != null && (e.getSQLState().startsWith("22") || e.getSQLState().startsWith("23"))) {
                throw ArchiveRefused.invalid(member, "row", member + " line " + line + " is not a row Engram can "
                        + "store (" + e.getMessage().lines().findFirst().orElse("") + ").");
            }
            throw e;
        }
    }

    private String id(String line) {
        try {
            return mapper.readTree(line).get("id").asText();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a line the reader checked", e);
        }
    }
}
