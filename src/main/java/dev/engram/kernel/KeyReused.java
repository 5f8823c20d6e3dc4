package dev.engram.kernel;

/**
 * An {@link IdempotencyKey} sent again with another request (another method, path or body) than the one it was first
 * used with. Nothing was written.
 */
public final class KeyReused extends EngramException {

    private final String key;

    public KeyReused(String key) {
        super(IdempotencyKey.HEADER + " " + key + " was already used for another request (another method, path or "
                + "body); nothing was written. Send a new key for a new write, and the first request unchanged to "
                + "get its answer again.");
        this.key = key;
    }

    /** The key that was reused. */
    public String key() {
        return key;
    }
}
