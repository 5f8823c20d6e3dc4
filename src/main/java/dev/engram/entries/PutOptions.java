package dev.engram.entries;

import dev.engram.kernel.Conflict;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Scope;
import java.util.Objects;
import java.util.Optional;

/**
 * How one write is made: who makes it ({@code session}), the precondition ({@link #ifVersion}), the claimed base
 * ({@link #basedOn}) and the key it is made once under ({@link #idempotent}). Used by {@link Store#put} and
 * {@link Store#forget}.
 *
 * @param session the session that writes, recorded on the change; "" for none
 * @param expect the {@link Entry#version} the stored entry must have, "" meaning it must not exist; empty for no
 *     precondition
 * @param base the content hash the write was built on without making it a precondition; empty for none
 * @param idempotency the key the write is made at most once under; empty for none
 * @param by who makes the write, recorded on the change ({@link Change#by}): the caller's key ID, {@code jwt:} and
 *     the token's subject, or {@code operator}; "" when not known
 */
public record PutOptions(String session, Optional<String> expect, Optional<String> base,
        Optional<IdempotencyKey> idempotency, String by) {

    /** An unconditional, unattributed write. */
    public static final PutOptions NONE = new PutOptions("", Optional.empty(), Optional.empty(), Optional.empty(), "");

    public PutOptions {
        session = session == null ? "" : session;
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(base, "base");
        idempotency = idempotency == null ? Optional.empty() : idempotency;
        by = by == null ? "" : by;
    }

    /** Options with no writer named. */
    public PutOptions(String session, Optional<String> expect, Optional<String> base,
            Optional<IdempotencyKey> idempotency) {
        this(session, expect, base, idempotency, "");
    }

    /** Options with no idempotency key and no writer named. */
    public PutOptions(String session, Optional<String> expect, Optional<String> base) {
        this(session, expect, base, Optional.empty(), "");
    }

    /** These options, attributed to {@code id}. */
    public PutOptions session(String id) {
        return new PutOptions(id, expect, base, idempotency, by);
    }

    /** These options, made by the caller {@code writer} (its key ID, {@code jwt:} and subject, or operator). */
    public PutOptions by(String writer) {
        return new PutOptions(session, expect, base, idempotency, writer);
    }

    /**
     * These options, conditional on the stored entry's {@link Entry#version} being {@code version}, "" meaning the
     * entry must not exist. A change of content or of meta alone fails it. The state it names is also the write's
     * base.
     */
    public PutOptions ifVersion(String version) {
        return new PutOptions(session, Optional.of(Objects.requireNonNull(version, "version")), base, idempotency,
                by);
    }

    /**
     * These options, recording the content hash {@code hash} as the state the write was built on without making it a
     * precondition, so that a later reader can tell a lost update from an ordinary edit. "" claims that the entry did
     * not exist.
     */
    public PutOptions basedOn(String hash) {
        return new PutOptions(session, expect, Optional.of(Objects.requireNonNull(hash, "hash")), idempotency, by);
    }

    /** These options, making the write at most once under {@code key}. */
    public PutOptions idempotent(IdempotencyKey key) {
        return new PutOptions(session, expect, base, Optional.of(Objects.requireNonNull(key, "key")), by);
    }

    /** Whether the write is conditional. */
    public boolean conditional() {
        return expect.isPresent();
    }

    /**
     * The content hash the store records as the change's {@code prev}, given the live entry or null: the one named
     * with {@link #basedOn}, else the one the store holds (which a met precondition has pinned).
     */
    public String baseFor(Entry stored) {
        return base.orElse(stored == null ? "" : stored.hash());
    }

    /** Throws {@link Conflict} when the write is conditional and {@code stored} (null for none) does not satisfy it. */
    public void check(Scope scope, String name, Entry stored) {
        if (expect.isPresent()) {
            String have = stored == null ? "" : stored.version();
            if (!expect.get().equals(have)) {
                throw new Conflict(scope, name, expect.get(), have);
            }
        }
    }
}
