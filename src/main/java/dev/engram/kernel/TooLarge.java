package dev.engram.kernel;

/**
 * Content over the store's bound, with the numbers needed to trim it: the attempted {@code size}, the
 * {@code limit}, and what the entry holds now ({@code stored}, -1 when there is no live entry).
 */
public final class TooLarge extends EngramException {

    private final Scope scope;
    private final String name;
    private final int size;
    private final int limit;
    private final int stored;

    public TooLarge(Scope scope, String name, int size, int limit, int stored) {
        super(message(scope, name, size, limit, stored));
        this.scope = scope;
        this.name = name;
        this.size = size;
        this.limit = limit;
        this.stored = stored;
    }

    private static String message(Scope scope, String name, int size, int limit, int stored) {
        String holds = stored < 0 ? "it does not exist yet" : "it holds " + stored + " bytes now";
        return "Content of " + scope + "/" + name + " is " + size + " bytes, over the limit of " + limit
                + " bytes (" + holds + "). Trim it by at least " + (size - limit)
                + " bytes, or split it into several entries.";
    }

    public Scope scope() {
        return scope;
    }

    public String name() {
        return name;
    }

    /** The attempted content size in bytes. */
    public int size() {
        return size;
    }

    /** The store's bound in bytes. */
    public int limit() {
        return limit;
    }

    /** The size the live entry holds, or -1 when there is none. */
    public int stored() {
        return stored;
    }
}
