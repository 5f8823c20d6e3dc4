package dev.engram.entries.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A row of {@code store}: one tenant, its journal's last seq and its content bound. The write functions bump the seq
 * (the row lock that serialises a store's writers); the service reads it here and never writes it as an entity.
 */
@Entity
@Table(name = "store")
public class StoreEntity extends PanacheEntityBase {

    @Id
    public String id;

    /** The last seq handed out. */
    public long seq;

    /** The content bound every write is checked against, in bytes. */
    @Column(name = "max_entry_bytes")
    public int maxEntryBytes;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;
}
