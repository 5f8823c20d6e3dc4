package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalEntity;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.hibernate.Session;
import org.hibernate.query.NativeQuery;

/**
 * The one way the entries and the journal reach PostgreSQL: the Hibernate session, outside any transaction. A write
 * is one statement calling its SQL function, so it runs in autocommit, one round trip; a read is a Panache query, or
 * native SQL where only SQL says it. Nothing is kept in the session between calls: rows change under the functions,
 * so every call reads them again.
 */
@ApplicationScoped
@ActivateRequestContext
class SessionCalls {

    @Inject
    Session session;

    /** The rows of the native {@code sql}, with {@code args} bound by name; a null binds as a text null. */
    List<Object[]> rows(String sql, Map<String, Object> args, Function<SQLException, RuntimeException> refusal) {
        return run(() -> bind(session.createNativeQuery(sql, Object[].class), args).getResultList(), refusal);
    }

    /** The single value the native {@code sql} answers. */
    <T> T value(String sql, Class<T> type, Map<String, Object> args) {
        return run(() -> bind(session.createNativeQuery(sql, type), args).getSingleResult(), StoreUnavailable::new);
    }

    /** The journal records the native {@code sql} answers, read as the entity by column name. */
    List<JournalEntity> records(String sql, Map<String, Object> args,
            Function<SQLException, RuntimeException> refusal) {
        return run(() -> bind(session.createNativeQuery(sql, JournalEntity.class), args).getResultList(), refusal);
    }

    /** The rows of the native {@code sql}: its {@code scalars}, then the journal record its other columns hold. */
    List<Object[]> recordRows(String sql, Map<String, Object> args, Function<SQLException, RuntimeException> refusal,
            String... scalars) {
        return run(() -> {
            NativeQuery<Object[]> query = session.createNativeQuery(sql, Object[].class);
            for (String scalar : scalars) {
                query.addScalar(scalar);
            }
            return bind(query.addEntity(JournalEntity.class), args).getResultList();
        }, refusal);
    }

    /** Runs a read (a Panache query and its mapping), then forgets what it loaded. */
    <T> T read(Supplier<T> read) {
        return run(read, StoreUnavailable::new);
    }

    private <T> T run(Supplier<T> call, Function<SQLException, RuntimeException> refusal) {
        try {
            return call.get();
        } catch (PersistenceException e) {
            SQLException cause = sqlCause(e);
            if (cause == null) {
                throw e;
            }
            throw refusal.apply(cause);
        } finally {
            session.clear();
        }
    }

    /** The SQLException under {@code e}, or null when it is not the database's. */
    static SQLException sqlCause(Throwable e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    private static <Q extends NativeQuery<?>> Q bind(Q query, Map<String, Object> args) {
        args.forEach((name, value) -> {
            if (value == null) {
                query.setParameter(name, null, String.class);
            } else {
                query.setParameter(name, value);
            }
        });
        return query;
    }

    /** A timestamptz as a native query answers it. */
    static Instant instant(Object value) {
        return value instanceof OffsetDateTime o ? o.toInstant() : value instanceof ZonedDateTime z ? z.toInstant()
                : value instanceof Timestamp t ? t.toInstant() : (Instant) Objects.requireNonNull(value);
    }

    /** Arguments by name, in order, nulls allowed. */
    static Map<String, Object> args(Object... namesAndValues) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            args.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return args;
    }
}
