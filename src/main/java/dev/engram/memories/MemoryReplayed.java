package dev.engram.memories;

/**
 * A save under an idempotency key that saved before: nothing was written, and {@code first} is the memory as that
 * first save answered it (it may have changed since), {@code reply} what it recorded beside it ("" for none).
 */
public final class MemoryReplayed extends RuntimeException {

    private final transient Memory first;
    private final String reply;

    public MemoryReplayed(Memory first, String reply) {
        super(null, null, false, false);
        this.first = first;
        this.reply = reply == null ? "" : reply;
    }

    public Memory first() {
        return first;
    }

    public String reply() {
        return reply;
    }
}
