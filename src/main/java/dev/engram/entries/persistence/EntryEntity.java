package dev.engram.entries.persistence;

import dev.engram.entries.Entry;
import dev.engram.journal.persistence.MetaJson;
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
import org.hibernate.annotations.ColumnTransformer;

/**
 * A row of {@code entry}: one live entry. Written only by the write functions ({@code engram_put},
 * {@code engram_forget}, {@code engram_erase}), which check the hash and version preconditions under the store's
 * row lock: {@link #hash} is the precondition {@code If-Match} and {@code ifVersion} compare against.
 */
@Entity
@Table(name = "entry")
@IdClass(EntryEntity.Key.class)
public class EntryEntity extends PanacheEntityBase {

    @Id
    @Column(name = "store_id")
    public String storeId;
    @Id
    public String scope;
    @Id
    public String name;

    public String content;

    /** A flat JSON object of strings (jsonb). */
    @ColumnTransformer(write = "cast(? as jsonb)")
    public String meta;

    /** {@code sha256:<hex>} of the content: the precondition the write functions check. */
    public String hash;

    public Instant updated;

    /** Name, meta values and content, case-folded, one per line: what the trigram search reads. */
    @Column(name = "search_text")
    public String searchText;

    /** The entry this row holds. */
    Entry toEntry() {
        return new Entry(new Scope(scope), name, content, MetaJson.parse(meta), hash, updated, false);
    }

    /** The live entries of one scope, by name. */
    static List<EntryEntity> inScope(String store, Scope scope) {
        return list("storeId = ?1 and scope = ?2 order by name", store, scope.value());
    }

    /** Up to {@code limit} live entries of one scope named after {@code after}, by name (on the primary key). */
    static List<EntryEntity> page(String store, Scope scope, String after, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return find("storeId = ?1 and scope = ?2 and name > ?3 order by name", store, scope.value(), after)
                .range(0, limit - 1).list();
    }

    /** The live entries of {@code scopes} (every scope when empty), by scope then name. */
    static List<EntryEntity> inScopes(String store, List<Scope> scopes) {
        if (scopes.isEmpty()) {
            return list("storeId = ?1 order by scope, name", store);
        }
        return list("storeId = ?1 and scope in ?2 order by scope, name", store,
                scopes.stream().map(Scope::value).toList());
    }

    /** The primary key: store, scope, name. */
    public static class Key implements Serializable {

        public String storeId;
        public String scope;
        public String name;

        public Key() {
        }

        Key(String storeId, String scope, String name) {
            this.storeId = storeId;
            this.scope = scope;
            this.name = name;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(storeId, k.storeId) && Objects.equals(scope, k.scope)
                    && Objects.equals(name, k.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(storeId, scope, name);
        }
    }
}
