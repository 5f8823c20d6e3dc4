package dev.engram.kernel;

/**
 * A conditional write whose precondition failed: the {@link Entry#version} the caller expected ({@code want}) and
 * the one the store holds ({@code have}), "" for no entry on either side. Nothing was written.
 */
public final class Conflict extends EngramException {

    private final Scope scope;
    private final String name;
    private final String want;
    private final String have;

    public Conflict(Scope scope, String name, String want, String have) {
        this(scope, name, want, have, message(scope, name, want, have));
    }

    private Conflict(Scope scope, String name, String want, String have, String message) {
        super(message);
        this.scope = scope;
        this.name = name;
        this.want = want;
        this.have = have;
    }

    private static String message(Scope scope, String name, String want, String have) {
        String id = scope + "/" + name;
        if (want.isEmpty()) {
            return id + " already exists (" + have + "). Read it, and write over it with its version as the "
                    + "precondition if you mean to replace it.";
        }
        if (have.isEmpty()) {
            return id + " does not exist any more; it was forgotten after you read " + want
                    + ". Read the journal to see what happened, and write without a precondition to create it.";
        }
        return id + " is now " + have + ", not the " + want + " this write was built on. Read it again, "
                + "apply your change to what it holds now, and retry with the version that read returns.";
    }

    /**
     * An edit that retried on every conflict for {@code millis} milliseconds, {@code attempts} times, and found the
     * entry changed each time: other sessions keep writing it. {@code want} and {@code have} are those of the last
     * attempt.
     */
    public static Conflict contended(Scope scope, String name, String want, String have, int attempts, long millis) {
        return new Conflict(scope, name, want, have, scope + "/" + name + " changed under this edit " + attempts
                + " times in " + millis + " ms: it was read, edited and written again after each change, with a "
                + "pause between tries, until its deadline, and other sessions kept writing it. Nothing was written;"
                + " send the edit again.");
    }

    public Scope scope() {
        return scope;
    }

    public String name() {
        return name;
    }

    /** The hash the write expected, "" for "must not exist". */
    public String want() {
        return want;
    }

    /** The hash the store holds, "" for no live entry. */
    public String have() {
        return have;
    }
}
