package dev.engram.access.persistence;

import dev.engram.access.ApiKeys;
import dev.engram.access.ConsoleSessions;
import dev.engram.persistence.Sql;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The console's sessions in {@code console_session} (V20), one statement per call. Opening a session also deletes
 * the expired ones, so the table holds about as many rows as there are live sessions.
 */
@ApplicationScoped
public class PgConsoleSessions implements ConsoleSessions {

    private static final String INSERT = "insert into console_session (id, key_hash, caller_id, caller_name, grants, "
            + "csrf, expires_at) values (?, ?, ?, ?, ?::jsonb, ?, ?)";
    private static final String FIND = "select key_hash, caller_id, caller_name, grants::text, csrf, expires_at "
            + "from console_session where id = ? and expires_at > clock_timestamp()";
    private static final String PURGE = "delete from console_session where expires_at <= clock_timestamp()";
    private static final String CLOSE = "delete from console_session where id = ?";

    private final SecureRandom random = new SecureRandom();

    @Inject
    AgroalDataSource dataSource;

    @Override
    public Opened open(Opening opening) {
        String token = secret();
        String csrf = secret();
        OffsetDateTime expires = opening.expires().atOffset(ZoneOffset.UTC);
        String grants = opening.keyHash().isPresent() ? null : PgKeys.write(opening.caller().grants());
        sql().transaction(tx -> {
            tx.update(PURGE);
            tx.update(INSERT, ApiKeys.hash(token), opening.keyHash().orElse(null), opening.caller().id(),
                    opening.caller().name(), grants, csrf, expires);
            return null;
        });
        return new Opened(token, csrf, opening.expires());
    }

    @Override
    public Optional<Session> find(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        return sql().first(FIND, PgConsoleSessions::session, ApiKeys.hash(token));
    }

    @Override
    public void close(String token) {
        if (token != null && !token.isEmpty()) {
            sql().connected(tx -> tx.update(CLOSE, ApiKeys.hash(token)));
        }
    }

    private static Session session(ResultSet r) throws SQLException {
        String grants = r.getString(4);
        return new Session(Optional.ofNullable(r.getString(1)), r.getString(2), r.getString(3),
                grants == null ? List.of() : PgKeys.parse(grants), r.getString(5),
                r.getObject(6, OffsetDateTime.class).toInstant());
    }

    /** 32 random bytes, URL-safe Base64 without padding. */
    private String secret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private Sql sql() {
        return new Sql(dataSource);
    }
}
