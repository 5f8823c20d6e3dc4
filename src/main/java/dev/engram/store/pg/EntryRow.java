package dev.engram.store.pg;

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

/** A row of {@code entry}: one live entry. Written only by {@code engram_put} and {@code engram_forget}. */
@Entity
@Table(name = "entry")
@IdClass(EntryRow.Key.class)
public class EntryRow extends PanacheEntityBase {

    @Id
    @Column(name = "store_id")
    public String storeId;

    @Id
    public String scope;

    @Id
    public String name;

    public String content;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> meta;

    public String hash;

    public Instant updated;

    Entry toEntry() {
        return new Entry(new Scope(scope), name, content, meta, hash, updated, false);
    }

    /** The primary key. */
    public static class Key implements Serializable {
        public String storeId;
        public String scope;
        public String name;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && java.util.Objects.equals(storeId, k.storeId) && java.util.Objects.equals(scope, k.scope) && java.util.Objects.equals(name, k.name);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(storeId, scope, name);
        }
    }
}
