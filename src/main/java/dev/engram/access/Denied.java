package dev.engram.access;

import java.util.List;

/**
 * A request the caller's grants do not allow, in a store they do reach: a role too low, or a scope outside the grant.
 * The message says what the key may do instead; {@code writable} and {@code readable} list the scopes it may write
 * and read there ({@code ["*"]} for every scope). A store the caller reaches not at all is {@code NotFound} instead.
 */
public final class Denied extends RuntimeException {

    private final String store;
    private final String needs;
    private final List<String> writable;
    private final List<String> readable;

    public Denied(String store, String needs, List<String> writable, List<String> readable, String message) {
        super(message, null, false, false);
        this.store = store;
        this.needs = needs;
        this.writable = List.copyOf(writable);
        this.readable = List.copyOf(readable);
    }

    /** The store asked about, or null for a request about no store (the keys API). */
    public String store() {
        return store;
    }

    /** What the request needs, such as {@code write on scope project} or {@code operator}. */
    public String needs() {
        return needs;
    }

    public List<String> writable() {
        return writable;
    }

    public List<String> readable() {
        return readable;
    }
}
