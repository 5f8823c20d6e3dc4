package dev.engram.entries.persistence;

import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.SessionManifests;
import dev.engram.kernel.EngramException;
import dev.engram.persistence.StoreUnavailable;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.hibernate.Session;

/**
 * Session manifest logs in PostgreSQL, as {@link SessionStateEntity} and {@link SessionManifestEntity}. An unchanged
 * render costs one read of the session's state row; a moved one locks that row in a transaction, so two renders of
 * one session append in turn and each delta is on the record before it.
 */
@ApplicationScoped
public class PgSessionManifests implements SessionManifests {

    private static final String ENSURE = "insert into session_state (store_id, session, seq, manifest, hash) "
            + "values (:store, :session, 0, :manifest, :hash) on conflict do nothing";
    private static final String APPEND = "insert into session_manifest (store_id, session, seq, record, hash) "
            + "values (:store, :session, :seq, :record, :hash) returning at";

    @Inject
    SessionCalls calls;

    @Inject
    Session session;

    @Override
    public Optional<SessionRecord> record(String store, String session, Manifest rendered) {
        String hash = rendered.hash();
        Optional<String> seen = calls.read(() -> SessionStateEntity.of(store, session).map(s -> s.hash));
        if (seen.map(hash::equals).orElse(hash.equals(Manifest.EMPTY.hash()))) {
            return Optional.empty();
        }
        try {
            return QuarkusTransaction.requiringNew().call(() -> append(store, session, rendered));
        } catch (RuntimeException e) {
            SQLException cause = SessionCalls.sqlCause(e);
            if (cause == null || e instanceof EngramException) {
                throw e;
            }
            throw new StoreUnavailable(cause);
        }
    }

    /** In the transaction: the state row made if new, locked, the record appended and the state advanced. */
    private Optional<SessionRecord> append(String store, String name, Manifest rendered) {
        session.createNativeMutationQuery(ENSURE).setParameter("store", store).setParameter("session", name)
                .setParameter("manifest", Manifest.EMPTY.record()).setParameter("hash", Manifest.EMPTY.hash())
                .executeUpdate();
        SessionStateEntity state = SessionStateEntity.locked(store, name);
        Manifest inForce = Manifest.apply(Manifest.EMPTY, state.manifest);
        Optional<String> record = SessionManifests.next(inForce, rendered);
        if (record.isEmpty()) {
            return Optional.empty();
        }
        int seq = state.seq + 1;
        String hash = rendered.hash();
        Instant at = SessionCalls.instant(session.createNativeQuery(APPEND, Object.class).setParameter("store", store)
                .setParameter("session", name).setParameter("seq", seq).setParameter("record", record.get())
                .setParameter("hash", hash).getSingleResult());
        state.seq = seq;
        state.manifest = rendered.record();
        state.hash = hash;
        state.updated = Instant.now();
        return Optional.of(new SessionRecord(seq, record.get(), hash, at));
    }

    @Override
    public SessionHistory history(String store, String session) {
        List<SessionRecord> records = calls.read(() -> SessionManifestEntity.log(store, session).stream()
                .map(SessionManifestEntity::toRecord).toList());
        return new SessionHistory(records, inForce(store, session).orElse(Manifest.EMPTY));
    }

    @Override
    public Optional<Manifest> inForce(String store, String session) {
        return calls.read(() -> SessionStateEntity.of(store, session).filter(s -> s.seq > 0)
                .map(s -> Manifest.apply(Manifest.EMPTY, s.manifest)));
    }
}
