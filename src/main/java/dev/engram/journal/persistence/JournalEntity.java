package dev.engram.journal.persistence;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Note;
import dev.engram.kernel.Scope;
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
import java.util.Optional;
import org.hibernate.annotations.ColumnTransformer;

/**
 * A record of {@code journal}: an entry's change (kind {@value #ENTRY}) or a note of another tier. Appended by the
 * write functions and by {@link JournalNotes}; the only change to a record is an erasure blanking it.
 */
@Entity
@Table(name = "journal")
@IdClass(JournalEntity.Key.class)
public class JournalEntity extends PanacheEntityBase {

    /** The kind of an entry's record; any other kind is a {@link Note} of another tier. */
    public static final String ENTRY = "entry";

    @Id
    @Column(name = "store_id")
    public String storeId;
    @Id
    public long seq;

    public String scope;
    public String name;
    public String content;
    @ColumnTransformer(write = "cast(? as jsonb)")
    public String meta;
    public String hash;
    public Instant updated;
    public boolean deleted;
    public String prev;
    public String replaced;
    public String session;
    public String source;
    public Instant at;

    /** The seq of the erasure that blanked this record, or null. */
    @Column(name = "erased_by")
    public Long erasedBy;

    /** On an erasure record, {@code {"by", "reason"}} (jsonb), else null. */
    @ColumnTransformer(write = "cast(? as jsonb)")
    public String erasure;

    public String kind = ENTRY;

    /** Who made the change (V19): a key ID, {@code jwt:} and a subject, {@code operator}, or "" when not known. */
    @Column(name = "written_by")
    public String writtenBy = "";

    /** A note's JSON body (jsonb), null on an entry's record. */
    @Column(name = "record")
    @ColumnTransformer(write = "cast(? as jsonb)")
    public String body;

    /** Up to {@code limit} records of {@code store} after {@code after}, in seq order. */
    public static List<JournalEntity> after(String store, long after, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return find("storeId = ?1 and seq > ?2 order by seq", store, after).range(0, limit - 1).list();
    }

    /** The record this row holds: an entry's change or erasure record, or a note of another tier. */
    public JournalRecord record() {
        return ENTRY.equals(kind) ? change() : JournalRecord.note(seq, new Note(kind, name, body), at, writtenBy);
    }

    /**
     * The entry's change (or erasure record) this row holds: the row of a write function, always an entry's.
     *
     * @throws IllegalStateException if the row is a note of another tier
     */
    public Change change() {
        if (!ENTRY.equals(kind)) {
            throw new IllegalStateException("journal record " + seq + " is a " + kind + " record, not an entry's");
        }
        Entry entry = new Entry(new Scope(scope), name, content, MetaJson.parse(meta), hash, updated, deleted);
        return new Change(seq, entry, prev, replaced, session, source, at, erasedBy == null ? 0 : erasedBy,
                Optional.ofNullable(erasure).map(MetaJson::parse)
                        .map(c -> new Erasure(c.getOrDefault("by", ""), c.getOrDefault("reason", ""))), writtenBy);
    }

    /** The primary key: store, seq. */
    public static class Key implements Serializable {
        public String storeId;
        public long seq;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(storeId, k.storeId) && seq == k.seq;
        }

        @Override
        public int hashCode() {
            return Objects.hash(storeId, seq);
        }
    }
}
