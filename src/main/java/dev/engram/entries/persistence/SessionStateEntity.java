package dev.engram.entries.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A row of {@code session_state}: the manifest in force for one session (its whole record) and the seq of its last
 * log record, so that a render compares one row; the row a session's writers lock. seq 0 with the empty manifest:
 * nothing recorded yet.
 */
@Entity
@Table(name = "session_state")
@IdClass(SessionStateEntity.Key.class)
public class SessionStateEntity extends PanacheEntityBase {

    @Id
    @Column(name = "store_id")
    public String storeId;
    @Id
    public String session;

    public int seq;
    public String manifest;
    public String hash;
    public Instant updated;

    /** The session's state, read as it is. */
    static Optional<SessionStateEntity> of(String store, String session) {
        return findByIdOptional(new Key(store, session));
    }

    /** The session's state, locked until the transaction ends. */
    static SessionStateEntity locked(String store, String session) {
        return findById(new Key(store, session), LockModeType.PESSIMISTIC_WRITE);
    }

    /** The primary key: store, session. */
    public static class Key implements Serializable {

        public String storeId;
        public String session;

        public Key() {
        }

        Key(String storeId, String session) {
            this.storeId = storeId;
            this.session = session;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(storeId, k.storeId) && Objects.equals(session, k.session);
        }

        @Override
        public int hashCode() {
            return Objects.hash(storeId, session);
        }
    }
}
