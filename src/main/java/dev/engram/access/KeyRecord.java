package dev.engram.access;

import dev.engram.kernel.Invalid;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** A live key as the store keeps it, without its secret: id, name, grants and when it was created. */
public record KeyRecord(String id, String name, List<Grant> grants, Instant createdAt) {

    /** The longest name, in characters. */
    public static final int MAX_NAME = 200;

    /** The most grants one key may hold. */
    public static final int MAX_GRANTS = 100;

    public KeyRecord {
        Objects.requireNonNull(id, "id");
        checkName(name);
        checkGrants(grants);
        grants = List.copyOf(grants);
    }

    /** Refuses a name that is empty, longer than {@link #MAX_NAME}, or holds control characters. */
    public static void checkName(String name) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new Invalid("key-name", "name", "A key needs a name of 1 to " + MAX_NAME + " characters on one "
                    + "line, such as support-bot, to tell it apart in the listing.");
        }
    }

    /** Refuses no grants, or more than {@link #MAX_GRANTS}. */
    public static void checkGrants(List<Grant> grants) {
        if (grants == null || grants.isEmpty() || grants.size() > MAX_GRANTS) {
            throw new Invalid("grants-count", "grants", "A key needs 1 to " + MAX_GRANTS + " grants, such as "
                    + "[{\"stores\": \"acme-*\", \"role\": \"write\"}].");
        }
    }

    /** The caller this key authenticates. */
    public Caller caller() {
        return new Caller(id, name, grants, false);
    }
}
