package dev.engram.stores.files.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.documents.Actor;
import dev.engram.entries.Hash;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.ops.EngramConfig;
import dev.engram.persistence.Sql;
import dev.engram.stores.files.ImportPlan;
import dev.engram.stores.files.ImportReport;
import dev.engram.stores.files.StoreArchive;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * An archive, read and checked whole, written into a store in one transaction under the store's lock: its entries
 * as {@link ImportPlan} decides, then its documents, memories and contexts. A refusal anywhere rolls all of it back;
 * followers of the journal are told once it commits.
 */
@ApplicationScoped
public class PgStoreImport {

    private static final Logger LOG = Logger.getLogger(PgStoreImport.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    ObjectMapper mapper;

    @Inject
    Event<JournalAppended> appended;

    /** The content bound of {@code store}, if it exists. */
    public Optional<Integer> maxEntryBytes(String store) {
        return new Sql(dataSource).first("select max_entry_bytes from store where id = ?", r -> r.getInt(1), store);
    }

    /** Imports {@code archive} into {@code store} (created if new), its changes of documents made by {@code actor}. */
    public ImportReport write(String store, StoreArchive archive, Actor actor) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        long[] last = {0};
        ImportReport report = new Sql(dataSource).transaction(tx -> {
            Optional<Integer> held = tx.first("select max_entry_bytes from store where id = ? for update",
                    r -> r.getInt(1), store);
            int bound = held.orElseGet(() -> archive.maxEntryBytes()
                    .filter(b -> b > 0 && b <= config.maxEntryBytesCeiling()).orElse(config.defaultMaxEntryBytes()));
            ImportPlan.checkSizes(archive, bound);
            tx.one("select l.seq from engram_store_lock(?, ?) l", r -> r.getLong(1), store, bound);
            boolean replay = tx.first("select 1 from journal where store_id = ? and kind = 'entry' limit 1",
                    r -> 1, store).isEmpty();
            Map<String, ImportPlan.Held> live = new HashMap<>();
            Rows.each(tx, "select scope, name, hash, meta::text from entry where store_id = ?", r -> live.put(
                    r.getString(1) + "/" + r.getString(2), new ImportPlan.Held(r.getString(3),
                            Hash.version(r.getString(3), MetaJson.parse(r.getString(4))))), store);
            ImportPlan plan = ImportPlan.of(archive, live, replay, now);
            for (ImportPlan.Step step : plan.steps()) {
                last[0] = Math.max(last[0], EntryWrites.write(tx, store, step));
            }
            checkEntryCount(tx, store);
            OtherWrites others = new OtherWrites(tx, store, config, mapper, now);
            others.documents(archive, actor);
            others.memoriesAndContexts(archive);
            last[0] = Math.max(last[0], others.lastSeq);
            return plan.report(archive, others.created, others.reconciled, others.unchanged, others.conflicts);
        });
        if (last[0] > 0) {
            try {
                appended.fire(new JournalAppended(store, last[0]));
            } catch (RuntimeException e) {
                LOG.warnf("Import into %s committed, but telling its followers failed: %s", store, e.toString());
            }
        }
        return report;
    }

    /**
     * Sets the store's count of live entries (the write functions keep it one by one; the import writes rows
     * straight), moves its entries version on (V18: a render kept from before is no longer the store's), and refuses
     * the import when it is over the limit.
     */
    private void checkEntryCount(Sql.Tx tx, String store) throws SQLException {
        int most = config.limits().entriesPerStore();
        long count = tx.one("update store s set entries = (select count(*) from entry e where e.store_id = s.id), "
                + "entries_version = s.entries_version + 1 where s.id = ? returning s.entries", r -> r.getLong(1),
                store);
        if (most > 0 && count > most) {
            throw ArchiveRefused.tooLarge("", "entries-per-store", most, count, "The store would hold " + count
                    + " entries, over its limit of " + most + "; import fewer, or forget some first.");
        }
    }
}
