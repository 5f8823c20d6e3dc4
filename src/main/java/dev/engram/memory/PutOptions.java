package dev.engram.memory;

import java.util.Objects;
import java.util.Optional;

/**
 * How one write is made: who makes it ({@code session}), the precondition ({@link #ifHash}) and the claimed base
 * ({@link #basedOn}). Used by {@link Store#put} and {@link Store#forget}.
 *
 * @param session the session that writes, recorded on the change; "" for none
 * @param expect the hash the stored entry must have, "" meaning it must not exist; empty for no precondition
 * @param base the hash the write was built on without making it a precondition; empty for none
 */
public record PutOptions(String session, Optional<String> expect, Optional<String> base) {

    /** An unconditional, unattributed write. */
    public static final PutOptions NONE = new PutOptions("", Optional.empty(), Optional.empty());

    public PutOptions {
        session = session == null ? "" : session;
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(base, "base");
    }

    /** These options, attributed to {@code id}. */
    public PutOptions session(String id) {
        return new PutOptions(id, expect, base);
    }

    /**
     * These options, conditional on the stored hash being {@code hash}, "" meaning the entry must not exist. The
     * hash is also the write's base.
     */
    public PutOptions ifHash(String hash) {
        return new PutOptions(session, Optional.of(Objects.requireNonNull(hash, "hash")), base);
    }

    /**
     * These options, recording {@code hash} as the state the write was built on without making it a precondition,
     * so that a later reader can tell a lost update from an ordinary edit.
     */
    public PutOptions basedOn(String hash) {
        return new PutOptions(session, expect, Optional.of(Objects.requireNonNull(hash, "hash")));
    }

    /** Whether the write is conditional. */
    public boolean conditional() {
        return expect.isPresent();
    }

    /**
     * The base the caller named, through {@link #ifHash} or {@link #basedOn}; empty when it named none, in which
     * case the store records the hash it holds.
     */
    public Optional<String> claimedBase() {
        return expect.isPresent() ? expect : base;
    }

    /** The hash a store records as the change's {@code prev}, given the live entry or null. */
    public String baseFor(Entry stored) {
        return claimedBase().orElse(stored == null ? "" : stored.hash());
    }

    /** Throws {@link Conflict} when the write is conditional and {@code stored} (null for none) does not satisfy it. */
    public void check(Scope scope, String name, Entry stored) {
        checkHash(scope, name, stored == null ? "" : stored.hash());
    }

    /** Throws {@link Conflict} when the write is conditional and the live hash {@code have} ("" for none) differs. */
    public void checkHash(Scope scope, String name, String have) {
        if (expect.isPresent() && !expect.get().equals(have)) {
            throw new Conflict(scope, name, expect.get(), have);
        }
    }
}
