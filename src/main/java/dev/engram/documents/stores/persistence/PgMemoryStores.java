package dev.engram.documents.stores.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.documents.Actor;
import dev.engram.documents.Written.Operation;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.MemoryStores;
import dev.engram.documents.stores.MemoryVersion;
import dev.engram.documents.stores.ProfileRules;
import dev.engram.documents.stores.StoreProfile;
import dev.engram.documents.stores.StoreQuery;
import dev.engram.documents.stores.VersionQuery;
import dev.engram.entries.EntryRules;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.ops.EngramConfig;
import dev.engram.persistence.Sql;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Memory stores in PostgreSQL: profiles in {@code store_profile} (V15), versions as the journal's document records;
 * each change is one call of its write function (R__memory_store_writes.sql).
 */
@ApplicationScoped
public class PgMemoryStores implements MemoryStores {

    private static final Logger LOG = Logger.getLogger(PgMemoryStores.class);
    private static final String PROFILE = "p.store_id, p.name, p.description, p.metadata::text, p.created_at, "
            + "p.updated_at, p.archived_at";
    private static final String VERSION = "j.seq, j.name, j.kind, j.record::text, j.at";
    private static final String VERSION_KINDS = "j.kind in ('document.created', 'document.modified', "
            + "'document.deleted')";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalAppended> appended;

    @Override
    public Optional<StoreProfile> profile(String store) {
        EntryRules.checkStoreId(store);
        return sql(store).first("select " + PROFILE + " from engram_memory_store_profile(?) p where p.store_id "
                + "is not null", PgMemoryStores::profile, store);
    }

    @Override
    public List<StoreProfile> stores(StoreQuery query, String after, int n) {
        StringBuilder where = new StringBuilder(" where true");
        List<Object> args = new ArrayList<>();
        if (query.createdFrom() != null) {
            where.append(" and p.created_at >= ?");
            args.add(query.createdFrom());
        }
        if (query.createdTo() != null) {
            where.append(" and p.created_at <= ?");
            args.add(query.createdTo());
        }
        if (!query.includeArchived()) {
            where.append(" and p.archived_at is null");
        }
        if (after != null) {
            int space = after.indexOf(' ');
            Instant at;
            try {
                at = Instant.EPOCH.plus(Long.parseLong(after.substring(0, Math.max(space, 0))), ChronoUnit.MICROS);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new Invalid("page", "page", "The page cursor is not one this listing answered; send the "
                        + "next_page value of the previous response as it was.");
            }
            where.append(" and (p.created_at, p.store_id) < (?, ?)");
            args.add(at);
            args.add(after.substring(space + 1));
        }
        args.add(n);
        return new Sql(dataSource).list("select " + PROFILE + " from (select s.id as store_id, "
                + "coalesce(q.name, s.id) as name, coalesce(q.description, '') as description, "
                + "coalesce(q.metadata, '{}') as metadata, coalesce(q.created_at, s.created_at) as created_at, "
                + "coalesce(q.updated_at, s.created_at) as updated_at, q.archived_at from store s "
                + "left join store_profile q on q.store_id = s.id) p" + where
                + " order by p.created_at desc, p.store_id desc limit ?", PgMemoryStores::profile, args.toArray());
    }

    @Override
    public String position(StoreProfile profile) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, profile.createdAt()) + " " + profile.store();
    }

    @Override
    public StoreProfile create(String store, String name, String description, Map<String, String> metadata,
            Actor actor) {
        EntryRules.checkStoreId(store);
        StoreProfile made = sql(store).transaction(tx -> tx.one("select " + PROFILE + " from "
                + "engram_memory_store_create(?, ?, ?, ?, ?::jsonb, ?::jsonb, ?) p", PgMemoryStores::profile, store,
                config.defaultMaxEntryBytes(), name, description, json(metadata), record(actor), now()));
        tell(store, 1);
        return made;
    }

    @Override
    public StoreProfile update(String store, Optional<String> name, Optional<String> description,
            Map<String, String> metadata, Actor actor) {
        EntryRules.checkStoreId(store);
        Changed c = sql(store).transaction(tx -> tx.one("select w.seq, " + PROFILE.replace("p.", "(w.profile).")
                + " from engram_memory_store_update(?, ?, ?, ?::jsonb, ?, ?::jsonb, ?) w", PgMemoryStores::changed,
                store, name.orElse(null), description.orElse(null), json(metadata), ProfileRules.MAX_PAIRS,
                record(actor), now()));
        tell(store, c.seq());
        return c.profile();
    }

    @Override
    public StoreProfile archive(String store, Actor actor) {
        EntryRules.checkStoreId(store);
        Changed c = sql(store).transaction(tx -> tx.one("select w.seq, " + PROFILE.replace("p.", "(w.profile).")
                + " from engram_memory_store_archive(?, ?::jsonb, ?) w", PgMemoryStores::changed, store,
                record(actor), now()));
        tell(store, c.seq());
        return c.profile();
    }

    @Override
    public void delete(String store, Actor actor) {
        EntryRules.checkStoreId(store);
        long seq = sql(store).transaction(tx -> tx.one("select engram_memory_store_delete(?, ?::jsonb, ?)",
                r -> r.getLong(1), store, record(actor), now()));
        tell(store, seq);
    }

    @Override
    public List<MemoryVersion> versions(String store, VersionQuery q, long before, int n) {
        EntryRules.checkStoreId(store);
        StringBuilder where = new StringBuilder(" where j.store_id = ? and " + VERSION_KINDS);
        List<Object> args = new ArrayList<>(List.of(store));
        if (q.memoryId() != null) {
            where.append(" and j.name = ?");
            args.add(q.memoryId());
        }
        if (q.operation() != null) {
            where.append(" and j.kind = ?");
            args.add("document." + q.operation().json());
        }
        if (q.sessionId() != null) {
            where.append(" and j.record -> 'actor' ->> 'session_id' = ?");
            args.add(q.sessionId());
        }
        if (q.apiKeyId() != null) {
            where.append(" and j.record -> 'actor' ->> 'api_key_id' = ?");
            args.add(q.apiKeyId());
        }
        if (q.serviceAccountId() != null) {
            where.append(" and j.record -> 'actor' ->> 'service_account_id' = ?");
            args.add(q.serviceAccountId());
        }
        if (q.createdFrom() != null) {
            where.append(" and j.at >= ?");
            args.add(q.createdFrom());
        }
        if (q.createdTo() != null) {
            where.append(" and j.at <= ?");
            args.add(q.createdTo());
        }
        if (before > 0) {
            where.append(" and j.seq < ?");
            args.add(before);
        }
        args.add(n);
        return sql(store).list("select " + VERSION + " from journal j" + where + " order by j.seq desc limit ?",
                PgMemoryStores::version, args.toArray());
    }

    @Override
    public Optional<MemoryVersion> version(String store, long seq) {
        EntryRules.checkStoreId(store);
        return sql(store).first("select " + VERSION + " from journal j where j.store_id = ? and j.seq = ? and "
                + VERSION_KINDS, PgMemoryStores::version, store, seq);
    }

    @Override
    public MemoryVersion redact(String store, long seq, Actor actor) {
        EntryRules.checkStoreId(store);
        Redacted done = new Sql(dataSource, e -> e.getSQLState() != null && e.getSQLState().equals("EG404")
                ? NotFound.memoryVersion(MemoryStoreIds.ofVersion(seq))
                : StoreRefusals.of(e, store, MemoryStoreIds.ofStore(store)))
                .transaction(tx -> tx.one("select " + VERSION + ", j.erased_by from engram_memory_version_redact(?, "
                        + "?, ?::jsonb, ?) j", r -> new Redacted(version(r), r.getLong(6)), store, seq,
                        actorJson(actor).toString(), now()));
        tell(store, done.by());
        MemoryVersion v = done.version();
        return v;
    }

    private Sql sql(String store) {
        return new Sql(dataSource, e -> StoreRefusals.of(e, store, MemoryStoreIds.ofStore(store)));
    }

    /** Tells the journal's followers of record {@code seq} (0: none) of {@code store}; it has committed. */
    private void tell(String store, long seq) {
        if (seq <= 0) {
            return;
        }
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Memory store change %s/%d committed, but telling its followers failed: %s", store, seq,
                    e.toString());
        }
    }

    private record Changed(long seq, StoreProfile profile) {
    }

    /** A redacted version, and the seq of the record of its redaction. */
    private record Redacted(MemoryVersion version, long by) {
    }

    private static Changed changed(ResultSet r) throws SQLException {
        return new Changed(r.getLong(1), profile(r, 2));
    }

    private static StoreProfile profile(ResultSet r) throws SQLException {
        return profile(r, 1);
    }

    private static StoreProfile profile(ResultSet r, int at) throws SQLException {
        Map<String, String> metadata = RecordJson.metadata(r.getString(at + 3));
        OffsetDateTime archived = r.getObject(at + 6, OffsetDateTime.class);
        return new StoreProfile(r.getString(at), r.getString(at + 1), r.getString(at + 2), metadata,
                instant(r, at + 4), instant(r, at + 5), archived == null ? null : archived.toInstant());
    }

    private static MemoryVersion version(ResultSet r) throws SQLException {
        JsonNode record = RecordJson.tree(r.getString(4));
        Operation operation = Operation.valueOf(r.getString(3).substring("document.".length())
                .toUpperCase(java.util.Locale.ROOT));
        JsonNode size = record.path("content_size_bytes");
        String redactedAt = text(record, "redacted_at");
        return new MemoryVersion(r.getLong(1), r.getString(2), operation, actor(record.path("actor")),
                text(record, "path"), text(record, "content"), text(record, "content_sha256"),
                size.isNumber() ? size.intValue() : null, instant(r, 5),
                redactedAt == null ? null : OffsetDateTime.parse(redactedAt).toInstant(),
                record.has("redacted_by") ? actor(record.path("redacted_by")) : null);
    }

    private static Actor actor(JsonNode a) {
        String type = a.path("type").asText(Actor.API);
        String member = new Actor(type, "").idMember();
        return new Actor(type, a.path(member).asText(""));
    }

    private static String text(JsonNode record, String member) {
        JsonNode v = record.get(member);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Instant instant(ResultSet r, int column) throws SQLException {
        return r.getObject(column, OffsetDateTime.class).toInstant();
    }

    /** The JSON of a change's record: who made it. */
    private static String record(Actor actor) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        r.set("actor", actorJson(actor));
        return r.toString();
    }

    private static ObjectNode actorJson(Actor actor) {
        ObjectNode a = JsonNodeFactory.instance.objectNode();
        a.put("type", actor.type());
        a.put(actor.idMember(), actor.id());
        return a;
    }

    private static String json(Map<String, String> metadata) {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        metadata.forEach(m::put);
        return m.toString();
    }

    /** Now, to the microsecond PostgreSQL keeps. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
