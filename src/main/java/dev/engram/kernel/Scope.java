package dev.engram.kernel;

import java.util.Objects;

/**
 * Whose memory an entry is: products define the values; {@code user}, {@code project} and {@code session} are the
 * conventional three. A scope follows the grammar of a name (see {@link Names#valid}); the constructor
 * accepts any string so that a store can refuse a bad one with {@link Invalid} instead of a programming error.
 */
public record Scope(String value) implements Comparable<Scope> {

    public Scope {
        Objects.requireNonNull(value, "value");
    }

    public static Scope of(String value) {
        return new Scope(value);
    }

    /** Whether this scope is kebab-case of 1 to {@link Names#MAX_BYTES} bytes. */
    public boolean isValid() {
        return Names.valid(value);
    }

    @Override
    public int compareTo(Scope other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
