package dev.engram.documents.persistence;

import dev.engram.documents.Actor;
import dev.engram.documents.Document;
import dev.engram.documents.DocumentHead;
import dev.engram.documents.DocumentPath;
import dev.engram.documents.DocumentText;
import dev.engram.documents.Documents;
import dev.engram.documents.Written;
import dev.engram.entries.EntryRules;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Sha256;
import dev.engram.kernel.Utf8;
import dev.engram.ops.EngramConfig;
import dev.engram.persistence.KeySeen;
import dev.engram.persistence.Sql;
import dev.engram.persistence.StoreUnavailable;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The documents of every store in PostgreSQL (migration V15, functions R__document_writes.sql): each change is one
 * call of its write function, which takes the store's lock, checks and writes the row with its journal record; a
 * directory's move or deletion calls it once per document in one transaction. A call under an idempotency key
 * ({@link #once}) runs every read and write it makes in one transaction with the key's row.
 */
@ApplicationScoped
public class PgDocuments implements Documents {

    private static final Logger LOG = Logger.getLogger(PgDocuments.class);
    private static final String COLUMNS = "id, path, content, sha256, size, created_at, updated_at, version";
    private static final String HEAD = "id, path, sha256, size, created_at, updated_at, version";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalAppended> appended;

    private final ThreadLocal<Bound> bound = new ThreadLocal<>();

    @Override
    public Optional<Document> at(String store, String path) {
        EntryRules.checkStoreId(store);
        return read(tx -> tx.first("select " + COLUMNS + " from document where store_id = ? and path = ?",
                PgDocuments::document, store, path));
    }

    @Override
    public Optional<Document> byId(String store, String id) {
        EntryRules.checkStoreId(store);
        return read(tx -> tx.first("select " + COLUMNS + " from document where store_id = ? and id = ?",
                PgDocuments::document, store, id));
    }

    @Override
    public List<DocumentHead> under(String store, String directory, String after, int limit) {
        EntryRules.checkStoreId(store);
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        String from = after.compareTo(prefix) > 0 ? after : prefix;
        return read(tx -> tx.list("select " + HEAD + " from document where store_id = ? and path > ? and path < ? "
                + "and starts_with(path, ?) order by path limit ?", PgDocuments::head, store, from,
                prefix + Character.toString(Character.MAX_CODE_POINT), prefix, limit));
    }

    @Override
    public Written create(String store, String path, String content, Actor actor) {
        EntryRules.checkStoreId(store);
        Change c = Change.create(DocumentPath.check(path, "path"), DocumentText.check(path, content, "content"),
                actor);
        return landed(store, write(tx -> List.of(c.run(tx, store, config))));
    }

    @Override
    public Written update(String store, String id, Optional<String> path, Optional<String> content,
            Optional<String> expect, Actor actor) {
        EntryRules.checkStoreId(store);
        path.ifPresent(p -> DocumentPath.check(p, "path"));
        Document now = byId(store, id).orElseThrow(() -> NotFound.document(id));
        content.ifPresent(t -> DocumentText.check(path.orElse(now.path()), t, "content"));
        return landed(store, write(tx -> List.of(Change.update(id, path, content, expect, actor)
                .run(tx, store, config))));
    }

    @Override
    public Written delete(String store, String id, Optional<String> expect, Actor actor) {
        EntryRules.checkStoreId(store);
        return landed(store, write(tx -> List.of(Change.delete(id, expect, actor).run(tx, store, config))));
    }

    @Override
    public List<Written> move(String store, String from, String to, Actor actor) {
        EntryRules.checkStoreId(store);
        DocumentPath.check(from, "old_path");
        DocumentPath.check(to, "new_path");
        List<Written> done = write(tx -> {
            List<Written> moved = new ArrayList<>();
            for (DocumentHead d : headsUnder(tx, store, from)) {
                String target = to + d.path().substring(from.length());
                DocumentPath.check(target, "new_path");
                moved.add(Change.update(d.id(), Optional.of(target), Optional.empty(), Optional.empty(), actor)
                        .run(tx, store, config));
            }
            return moved;
        });
        tell(store, done);
        return done;
    }

    @Override
    public List<Written> deleteUnder(String store, String directory, Actor actor) {
        EntryRules.checkStoreId(store);
        List<Written> done = write(tx -> {
            List<Written> deleted = new ArrayList<>();
            for (DocumentHead d : headsUnder(tx, store, directory)) {
                deleted.add(Change.delete(d.id(), Optional.empty(), actor).run(tx, store, config));
            }
            return deleted;
        });
        tell(store, done);
        return done;
    }

    @Override
    public Kept once(String store, IdempotencyKey key, Supplier<String> call) {
        EntryRules.checkStoreId(store);
        if (bound.get() != null) {
            throw new IllegalStateException("a call under a key runs no other call under a key");
        }
        List<Written> done = new ArrayList<>();
        Kept kept = sql().transaction(tx -> {
            Optional<KeySeen> seen = KeySeen.lock(tx, store, key);
            if (seen.isPresent()) {
                tx.rollbackOnly();
                return new Kept(seen.get().reply(), true);
            }
            bound.set(new Bound(tx, done));
            String reply;
            try {
                reply = call.get();
            } finally {
                bound.remove();
            }
            long seq = done.stream().filter(Written::changed).mapToLong(Written::seq).max().orElse(0);
            tx.update("insert into idempotency (store_id, caller, key, fingerprint, seq, reply) "
                    + "values (?, ?, ?, ?, ?, ?)", store, key.caller(), key.key(), key.fingerprint(), seq, reply);
            return new Kept(reply, false);
        });
        tell(store, done);
        return kept;
    }

    /**
     * The transaction of a call under a key ({@link #once}) on this thread: its writes join it, each in a savepoint
     * so that a refused one leaves the others, and its reads see them.
     */
    private record Bound(Sql.Tx tx, List<Written> done) {
    }

    /** {@code work} in the transaction of the call under a key on this thread, or on a connection of its own. */
    private <T> T read(Sql.Work<T> work) {
        Bound b = bound.get();
        if (b == null) {
            return sql().connected(work);
        }
        try {
            return work.run(b.tx());
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /**
     * The writes of {@code work} in a transaction of their own, all or none; under a key ({@link #once}) in a
     * savepoint of its transaction, told to followers once it commits.
     */
    private List<Written> write(Sql.Work<List<Written>> work) {
        Bound b = bound.get();
        if (b == null) {
            return sql().transaction(work);
        }
        Connection c = b.tx().connection();
        Savepoint before;
        try {
            before = c.setSavepoint();
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
        try {
            List<Written> written = work.run(b.tx());
            c.releaseSavepoint(before);
            b.done().addAll(written);
            return written;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback(before);
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e instanceof RuntimeException r ? r : new StoreUnavailable((SQLException) e);
        }
    }

    /** Every live document under {@code directory}, read in the transaction that changes them. */
    private static List<DocumentHead> headsUnder(Sql.Tx tx, String store, String directory) throws SQLException {
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        return tx.list("select " + HEAD + " from document where store_id = ? and starts_with(path, ?) "
                + "order by path for update", PgDocuments::head, store, prefix);
    }

    private Written landed(String store, List<Written> done) {
        tell(store, done);
        return done.get(0);
    }

    /** Tells the journal's followers of each record appended; the change has committed whatever happens here. */
    private void tell(String store, List<Written> done) {
        if (bound.get() != null) {
            return;
        }
        for (Written w : done) {
            if (!w.changed()) {
                continue;
            }
            try {
                appended.fire(new JournalAppended(store, w.seq()));
            } catch (RuntimeException e) {
                LOG.warnf("Document change %s/%d committed, but telling its followers failed: %s", store, w.seq(),
                        e.toString());
            }
        }
    }

    static Document document(ResultSet r) throws SQLException {
        return new Document(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getInt(5),
                Change.instant(r, 6), Change.instant(r, 7), r.getLong(8));
    }

    static DocumentHead head(ResultSet r) throws SQLException {
        return new DocumentHead(r.getString(1), r.getString(2), r.getString(3), r.getInt(4), Change.instant(r, 5),
                Change.instant(r, 6), r.getLong(7));
    }

    /** Now, to the microsecond PostgreSQL keeps, so that what a write answers is what a read finds. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    static int size(String content) {
        return Utf8.length(content);
    }

    static String sha(String content) {
        return Sha256.hex(content);
    }

    private Sql sql() {
        return new Sql(dataSource);
    }
}
