package dev.engram.store.pg;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A row of {@code store}: one tenant, its journal's last seq and its content bound. */
@Entity
@Table(name = "store")
public class StoreRow extends PanacheEntityBase {

    @Id
    public String id;

    public long seq;

    @Column(name = "max_entry_bytes")
    public int maxEntryBytes;

    @Column(name = "created_at")
    public Instant createdAt;
}
