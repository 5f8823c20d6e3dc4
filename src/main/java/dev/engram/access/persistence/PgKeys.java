package dev.engram.access.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.access.ApiKeys;
import dev.engram.access.Grant;
import dev.engram.access.KeyRecord;
import dev.engram.access.Keys;
import dev.engram.access.Role;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.persistence.Sql;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** API keys in PostgreSQL's {@code api_key}: one statement per call, outside any transaction of the caller. */
@ApplicationScoped
public class PgKeys implements Keys {

    private static final String INSERT = "insert into api_key (id, name, hash, grants) values (?, ?, ?, ?::jsonb) "
            + "returning created_at";
    private static final String LIST = "select id, name, grants, created_at from api_key where revoked_at is null "
            + "order by created_at, id";
    /** After a key by its place in the list: (created_at, id), read from its row (a revoked key's stays). */
    private static final String PAGE = "select id, name, grants, created_at from api_key where revoked_at is null "
            + "and (? = '' or (created_at, id) > (select a.created_at, a.id from api_key a where a.id = ?)) "
            + "order by created_at, id limit ?";
    private static final String REVOKE = "update api_key set revoked_at = clock_timestamp() "
            + "where id = ? and revoked_at is null";
    private static final String FIND = "select id, name, grants, created_at from api_key "
            + "where hash = ? and revoked_at is null";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<Map<String, Object>>> GRANTS = new TypeReference<>() {
    };

    private final SecureRandom random = new SecureRandom();

    @Inject
    AgroalDataSource dataSource;

    @Override
    public IssuedKey issue(String name, List<Grant> grants) {
        KeyRecord.checkName(name);
        KeyRecord.checkGrants(grants);
        String secret = ApiKeys.generate(random);
        String id = ApiKeys.newId(random);
        return sql().connected(tx -> tx.one(INSERT, r -> new IssuedKey(new KeyRecord(id, name, grants,
                r.getObject(1, OffsetDateTime.class).toInstant()), secret), id, name, ApiKeys.hash(secret),
                write(grants)));
    }

    @Override
    public List<KeyRecord> list() {
        return sql().list(LIST, PgKeys::record);
    }

    @Override
    public Paged<KeyRecord> page(String after, int limit) {
        String from = after == null ? "" : after;
        return Paged.of(sql().list(PAGE, PgKeys::record, from, from, Math.max(0, limit) + 1), limit, Long.MAX_VALUE,
                k -> 0);
    }

    @Override
    public boolean revoke(String id) {
        return sql().connected(tx -> tx.update(REVOKE, id)) == 1;
    }

    @Override
    public Optional<KeyRecord> findLive(String hash) {
        return sql().first(FIND, PgKeys::record, hash);
    }

    private Sql sql() {
        return new Sql(dataSource);
    }

    private static KeyRecord record(ResultSet r) throws SQLException {
        return new KeyRecord(r.getString(1), r.getString(2), parse(r.getString(3)),
                r.getObject(4, OffsetDateTime.class).toInstant());
    }

    /** Grants as the keys API writes them: stores, role, and scopes and read_scopes when limited. */
    static String write(List<Grant> grants) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Grant g : grants) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stores", g.stores());
            m.put("role", g.role().value());
            if (!g.scopes().isEmpty()) {
                m.put("scopes", g.scopes().stream().map(Scope::value).toList());
            }
            if (!g.readScopes().isEmpty()) {
                m.put("read_scopes", g.readScopes().stream().map(Scope::value).toList());
            }
            out.add(m);
        }
        try {
            return JSON.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("grants always serialise", e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Grant> parse(String json) {
        try {
            List<Grant> grants = new ArrayList<>();
            for (Map<String, Object> m : JSON.readValue(json, GRANTS)) {
                grants.add(new Grant((String) m.get("stores"), Role.parse((String) m.get("role"), "role"),
                        scopes((List<String>) m.get("scopes")), scopes((List<String>) m.get("read_scopes"))));
            }
            return grants;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("api_key.grants holds the grants the keys API wrote", e);
        }
    }

    private static List<Scope> scopes(List<String> values) {
        return values == null ? List.of() : values.stream().map(Scope::new).toList();
    }
}
