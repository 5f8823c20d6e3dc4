package dev.engram.entries.persistence;

import dev.engram.entries.render.SessionManifests.SessionRecord;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A row of {@code session_manifest}: one record of what a session was shown, a whole manifest or a delta on the one
 * in force before it, with the hash of the manifest in force after it.
 */
@Entity
@Table(name = "session_manifest")
@IdClass(SessionManifestEntity.Key.class)
public class SessionManifestEntity extends PanacheEntityBase {

    @Id
    @Column(name = "store_id")
    public String storeId;
    @Id
    public String session;
    @Id
    public int seq;

    /** The record exactly as written. */
    public String record;

    public String hash;
    public Instant at;

    SessionRecord toRecord() {
        return new SessionRecord(seq, record, hash, at);
    }

    /** The session's log, in order. */
    static List<SessionManifestEntity> log(String store, String session) {
        return list("storeId = ?1 and session = ?2 order by seq", store, session);
    }

    /** The primary key: store, session, seq. */
    public static class Key implements Serializable {

        public String storeId;
        public String session;
        public int seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(storeId, k.storeId) && Objects.equals(session, k.session)
                    && seq == k.seq;
        }

        @Override
        public int hashCode() {
            return Objects.hash(storeId, session, seq);
        }
    }
}
