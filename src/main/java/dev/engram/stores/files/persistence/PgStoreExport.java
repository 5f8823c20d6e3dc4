package dev.engram.stores.files.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.entries.Change;
import dev.engram.entries.rest.ChangeJson;
import dev.engram.kernel.NotFound;
import dev.engram.persistence.Sql;
import dev.engram.rest.JsonSetup;
import dev.engram.stores.files.ArchiveWriter;
import dev.engram.stores.files.JournalFile;
import dev.engram.stores.files.Layout;
import dev.engram.stores.files.ScopeFiles;
import dev.engram.stores.files.StateFile;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A store written as its archive (docs/export-format.md) straight into the response, from one read-only snapshot
 * (REPEATABLE READ) of its tables, each read {@value Rows#FETCH} rows at a time: the JSON-lines members go to
 * temporary files first (a tar member's size comes before its bytes), the entries and documents straight into the
 * tar. What is held at once is one member, the scope's index and the cursor's list of entries.
 */
@ApplicationScoped
public class PgStoreExport {

    static final String MEMORIES = "select (to_jsonb(m) - 'store_id' - 'change' - 'made')::text from memory m "
            + "where m.store_id = ? order by m.id";
    static final String CONTEXTS = "select " + Contexts.LINE + "::text from context c where c.store_id = ? "
            + "order by c.id";

    @Inject
    AgroalDataSource dataSource;

    /** The REST API's mapper: Engram's journal lines are what GET .../journal answers as NDJSON. */
    @Inject
    JsonSetup json;

    /** Whether {@code store} exists, asked before the response starts. */
    public boolean exists(String store) {
        return new Sql(dataSource).first("select 1 from store where id = ?", r -> 1, store).isPresent();
    }

    /** Writes store {@code store}'s archive into {@code out}; {@link NotFound} when there is no such store. */
    public void export(String store, OutputStream out) {
        List<Path> temporary = new ArrayList<>();
        try {
            new Sql(dataSource).transaction(tx -> {
                tx.update("set transaction isolation level repeatable read, read only");
                write(tx, store, out, temporary);
                tx.rollbackOnly();
                return null;
            });
        } finally {
            temporary.forEach(PgStoreExport::delete);
        }
    }

    private void write(Sql.Tx tx, String store, OutputStream out, List<Path> temporary) throws SQLException {
        ObjectMapper mapper = json.mapper();
        Object[] row = tx.first("select max_entry_bytes, seq, created_at from store where id = ?",
                r -> new Object[] {r.getInt(1), r.getLong(2), Rows.instant(r, 3)}, store)
                .orElseThrow(() -> NotFound.store(store));
        Instant now = Instant.now();
        try {
            Path reference = temp(temporary);
            Path engram = temp(temporary);
            JournalFile journal = new JournalFile(reference);
            try (journal; BufferedWriter all = Files.newBufferedWriter(engram, StandardCharsets.UTF_8)) {
                Rows.each(tx, Rows.JOURNAL, r -> {
                    if (r.getString(2).equals("entry")) {
                        Change c = Rows.change(r);
                        if (!c.isErasure()) {
                            journal.add(c);
                        }
                        all.write(mapper.writeValueAsString(ChangeJson.of(c)));
                    } else {
                        all.write(mapper.writeValueAsString(new ChangeJson(r.getLong(1), r.getString(2), null, null,
                                null, null, null, r.getString(19), Rows.instant(r, 14), null, null,
                                r.getString(18))));
                    }
                    all.write('\n');
                }, store);
            }
            Path memories = lines(tx, MEMORIES, store, temporary);
            Path contexts = lines(tx, CONTEXTS, store, temporary);
            ArchiveWriter tar = new ArchiveWriter(out);
            tar.file(Layout.JOURNAL, reference, now);
            StateFile state = new StateFile();
            ScopeFiles scopes = new ScopeFiles(tar, state);
            Rows.each(tx, Rows.ENTRIES, r -> scopes.add(Rows.entry(r)), store);
            scopes.finish();
            tar.text(Layout.STATE, state.text(journal), now);
            tar.text(Layout.STORE, storeJson(store, row), now);
            tar.file(Layout.ENGRAM_JOURNAL, engram, now);
            Rows.each(tx, "select path, content, updated_at from document where store_id = ? order by path",
                    r -> tar.text(Layout.document(r.getString(1)), r.getString(2), Rows.instant(r, 3)), store);
            tar.file(Layout.MEMORIES, memories, now);
            tar.file(Layout.CONTEXTS, contexts, now);
            tar.close();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String storeJson(String store, Object[] row) throws IOException {
        ObjectNode s = json.mapper().createObjectNode();
        s.put("id", store);
        s.put("max_entry_bytes", (Integer) row[0]);
        s.put("seq", (Long) row[1]);
        s.put("created_at", row[2].toString());
        return json.mapper().writeValueAsString(s) + "\n";
    }

    private static Path lines(Sql.Tx tx, String sql, String store, List<Path> temporary)
            throws SQLException, IOException {
        Path file = temp(temporary);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            Rows.each(tx, sql, r -> {
                w.write(r.getString(1));
                w.write('\n');
            }, store);
        }
        return file;
    }

    private static Path temp(List<Path> temporary) throws IOException {
        Path p = Files.createTempFile("engram-export-", ".jsonl");
        temporary.add(p);
        return p;
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary file left behind is the system's to clean
        }
    }
}
