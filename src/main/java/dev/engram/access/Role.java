package dev.engram.access;

import dev.engram.kernel.Invalid;
import java.util.Locale;

/**
 * What a grant lets its holder do in the stores it covers, each role including the ones before it: {@code read}
 * entries, the journal and renders; {@code write} entries and call the tools; {@code admin} the store's settings.
 */
public enum Role {
    READ, WRITE, ADMIN;

    /** Whether this role includes {@code needed}: admin includes write, write includes read. */
    public boolean includes(Role needed) {
        return compareTo(needed) >= 0;
    }

    /** The role's name in JSON: {@code read}, {@code write} or {@code admin}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role named {@code value}; anything but read, write or admin is refused with {@link Invalid}. */
    public static Role parse(String value, String field) {
        for (Role r : values()) {
            if (r.value().equals(value)) {
                return r;
            }
        }
        throw new Invalid("role-unknown", field, "Role " + (value == null ? "is missing" : "\"" + value + "\" is "
                + "unknown") + "; a grant's role is read, write or admin.");
    }
}
