package dev.engram.documents.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.documents.Actor;
import dev.engram.documents.Document;
import dev.engram.documents.Written;
import dev.engram.documents.Written.Operation;
import dev.engram.ops.EngramConfig;
import dev.engram.persistence.Sql;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

/** One call of a document's write function (R__document_writes.sql) and what it answered. */
final class Change {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String ANSWER = "select w.seq, (w.doc).id, (w.doc).path, (w.doc).content, (w.doc).sha256, "
            + "(w.doc).size, (w.doc).created_at, (w.doc).updated_at, (w.doc).version from ";

    private final Operation operation;
    private final String id;
    private final Optional<String> path;
    private final Optional<String> content;
    private final Optional<String> expect;
    private final Actor actor;

    private Change(Operation operation, String id, Optional<String> path, Optional<String> content,
            Optional<String> expect, Actor actor) {
        this.operation = operation;
        this.id = id;
        this.path = path;
        this.content = content;
        this.expect = expect;
        this.actor = actor;
    }

    /** A new document's creation: its id is made here, {@code mem_} and 24 random letters and digits. */
    static Change create(String path, String content, Actor actor) {
        return new Change(Operation.CREATED, newId(), Optional.of(path), Optional.of(content), Optional.empty(),
                actor);
    }

    static Change update(String id, Optional<String> path, Optional<String> content, Optional<String> expect,
            Actor actor) {
        return new Change(Operation.MODIFIED, id, path, content, expect, actor);
    }

    static Change delete(String id, Optional<String> expect, Actor actor) {
        return new Change(Operation.DELETED, id, Optional.empty(), Optional.empty(), expect, actor);
    }

    /** Calls the write function in {@code tx}, translating its refusals with what this change names. */
    Written run(Sql.Tx tx, String store, EngramConfig config) {
        Instant at = PgDocuments.now();
        String record = record();
        try {
            return switch (operation) {
                case CREATED -> tx.one(ANSWER + "engram_document_create(?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) w",
                        r -> written(r, Operation.CREATED), store, config.defaultMaxEntryBytes(),
                        config.limits().documentsPerStore(), id, path.get(), content.get(),
                        PgDocuments.sha(content.get()), PgDocuments.size(content.get()), record, at);
                case MODIFIED -> tx.one(ANSWER + "engram_document_update(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) w",
                        r -> written(r, Operation.MODIFIED), store, id, path.orElse(null), content.orElse(null),
                        content.map(PgDocuments::sha).orElse(null), content.map(PgDocuments::size).orElse(null),
                        expect.orElse(null), record, at);
                case DELETED -> tx.one(ANSWER + "engram_document_delete(?, ?, ?, ?::jsonb, ?) w",
                        r -> written(r, Operation.DELETED), store, id, expect.orElse(null), record, at);
            };
        } catch (SQLException e) {
            throw DocumentRefusals.of(e, store, id, path.orElse(""), expect.orElse(""));
        }
    }

    /** The version's JSON as this change knows it: its operation and actor (the function adds the document). */
    private String record() {
        ObjectNode r = JSON.createObjectNode();
        r.put("operation", operation.json());
        ObjectNode a = r.putObject("actor");
        a.put("type", actor.type());
        a.put(actor.idMember(), actor.id());
        return r.toString();
    }

    private static Written written(java.sql.ResultSet r, Operation operation) throws SQLException {
        Document d = new Document(r.getString(2), r.getString(3), r.getString(4), r.getString(5), r.getInt(6),
                instant(r, 7), instant(r, 8), r.getLong(9));
        return new Written(d, r.getLong(1), operation);
    }

    static Instant instant(java.sql.ResultSet r, int column) throws SQLException {
        return r.getObject(column, OffsetDateTime.class).toInstant();
    }

    private static String newId() {
        StringBuilder id = new StringBuilder("mem_");
        for (int i = 0; i < 24; i++) {
            id.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
        }
        return id.toString();
    }
}
