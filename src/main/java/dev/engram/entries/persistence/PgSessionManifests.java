package dev.engram.entries.persistence;

import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.SessionManifests;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Session manifest logs in PostgreSQL. An unchanged render costs one read of the session's state row; a moved one
 * locks that row, so two renders of one session append in turn and each delta is on the record before it.
 */
@ApplicationScoped
public class PgSessionManifests implements SessionManifests {

    private static final String STATE = "select seq, manifest, hash from session_state where store_id = ? and session = ?";
    private static final String ENSURE = "insert into session_state (store_id, session, seq, manifest, hash) "
            + "values (?, ?, 0, ?, ?) on conflict do nothing";
    private static final String APPEND = "insert into session_manifest (store_id, session, seq, record, hash) "
            + "values (?, ?, ?, ?, ?) returning at";
    private static final String ADVANCE = "update session_state set seq = ?, manifest = ?, hash = ?, "
            + "updated = clock_timestamp() where store_id = ? and session = ?";
    private static final String LOG = "select seq, record, hash, at from session_manifest "
            + "where store_id = ? and session = ? order by seq";

    @Inject
    AgroalDataSource dataSource;

    @Override
    public Optional<SessionRecord> record(String store, String session, Manifest rendered) {
        String hash = rendered.hash();
        try (Connection c = dataSource.getConnection()) {
            Optional<State> seen = state(c, store, session, false);
            if (seen.map(s -> s.hash.equals(hash)).orElse(hash.equals(Manifest.EMPTY.hash()))) {
                return Optional.empty();
            }
            c.setAutoCommit(false);
            try {
                Optional<SessionRecord> written = append(c, store, session, rendered);
                c.commit();
                return written;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private Optional<SessionRecord> append(Connection c, String store, String session, Manifest rendered)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(ENSURE)) {
            s.setString(1, store);
            s.setString(2, session);
            s.setString(3, Manifest.EMPTY.record());
            s.setString(4, Manifest.EMPTY.hash());
            s.executeUpdate();
        }
        State locked = state(c, store, session, true).orElseThrow();
        Manifest inForce = Manifest.apply(Manifest.EMPTY, locked.manifest);
        Optional<String> record = SessionManifests.next(inForce, rendered);
        if (record.isEmpty()) {
            return Optional.empty();
        }
        int seq = locked.seq + 1;
        String hash = rendered.hash();
        OffsetDateTime at;
        try (PreparedStatement s = c.prepareStatement(APPEND)) {
            s.setString(1, store);
            s.setString(2, session);
            s.setInt(3, seq);
            s.setString(4, record.get());
            s.setString(5, hash);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                at = r.getObject(1, OffsetDateTime.class);
            }
        }
        try (PreparedStatement s = c.prepareStatement(ADVANCE)) {
            s.setInt(1, seq);
            s.setString(2, rendered.record());
            s.setString(3, hash);
            s.setString(4, store);
            s.setString(5, session);
            s.executeUpdate();
        }
        return Optional.of(new SessionRecord(seq, record.get(), hash, at.toInstant()));
    }

    @Override
    public SessionHistory history(String store, String session) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(LOG)) {
            s.setString(1, store);
            s.setString(2, session);
            List<SessionRecord> records = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    records.add(new SessionRecord(r.getInt(1), r.getString(2), r.getString(3),
                            r.getObject(4, OffsetDateTime.class).toInstant()));
                }
            }
            return new SessionHistory(records, inForce(store, session).orElse(Manifest.EMPTY));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public Optional<Manifest> inForce(String store, String session) {
        try (Connection c = dataSource.getConnection()) {
            return state(c, store, session, false).filter(s -> s.seq > 0)
                    .map(s -> Manifest.apply(Manifest.EMPTY, s.manifest));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private record State(int seq, String manifest, String hash) {
    }

    private static Optional<State> state(Connection c, String store, String session, boolean lock)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(lock ? STATE + " for update" : STATE)) {
            s.setString(1, store);
            s.setString(2, session);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new State(r.getInt(1), r.getString(2), r.getString(3)))
                        : Optional.empty();
            }
        }
    }
}
