package dev.engram.kernel;

import java.util.Objects;

/**
 * A reflection that landed nothing: no reflector is configured ({@link Kind#UNCONFIGURED}), the reflector could not
 * be reached or failed ({@link Kind#UNREACHABLE}), it answered something that is not a consolidation
 * ({@link Kind#MALFORMED}), or the bank changed between reading its facts and landing the observations
 * ({@link Kind#BANK_CHANGED}). The message says what to do next.
 */
public final class ReflectionFailed extends EngramException {

    /** Why nothing landed. */
    public enum Kind { UNCONFIGURED, UNREACHABLE, MALFORMED, BANK_CHANGED }

    private final Kind kind;
    private final String reflector;

    public ReflectionFailed(Kind kind, String reflector, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.reflector = reflector == null ? "" : reflector;
    }

    public Kind kind() {
        return kind;
    }

    /** The reflector asked ("" when none was configured). */
    public String reflector() {
        return reflector;
    }
}
