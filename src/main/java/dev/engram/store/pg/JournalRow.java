package dev.engram.store.pg;

import dev.engram.memory.Change;
import dev.engram.memory.Entry;
import dev.engram.memory.Scope;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Map;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A row of {@code journal}: one change, appended only by the write functions, and updated only by
 * {@code engram_erase}, which blanks its content and meta.
 */
@Entity
@Table(name = "journal")
@IdClass(JournalRow.Key.class)
public class JournalRow extends PanacheEntityBase {

    @Id
    @Column(name = "store_id")
    public String storeId;

    @Id
    public long seq;

    public String scope;
    public String name;
    public String content;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> meta;

    public String hash;
    public Instant updated;
    public boolean deleted;
    public String prev;
    public String replaced;
    public String session;
    public String source;
    public Instant at;

    /** The seq of the erasure record that blanked this record, or null. */
    @Column(name = "erased_by")
    public Long erasedBy;

    /** On an erasure record, {@code {"by", "reason"}}; null on every other. */
    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> erasure;

    Change toChange() {
        Entry entry = new Entry(new Scope(scope), name, content, meta, hash, updated, deleted);
        return new Change(seq, entry, prev, replaced, session, source, at, erasedBy == null ? 0 : erasedBy,
                JournalColumns.erasure(erasure));
    }

    /** The primary key. */
    public static class Key implements Serializable {
        public String storeId;
        public long seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && java.util.Objects.equals(storeId, k.storeId) && seq == k.seq;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(storeId, seq);
        }
    }
}
