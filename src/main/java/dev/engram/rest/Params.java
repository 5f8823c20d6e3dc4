package dev.engram.rest;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import java.util.List;

/** Reads path and query parameters, refusing bad ones with {@link Invalid} so that they get a 422 problem. */
public final class Params {

    private Params() {
    }

    public static String store(String id) {
        EntryRules.checkStoreId(id);
        return id;
    }

    public static Scope scope(String value) {
        Scope scope = new Scope(value == null ? "" : value);
        EntryRules.checkScope(scope);
        return scope;
    }

    public static List<Scope> scopes(List<String> values) {
        return values == null ? List.of() : values.stream().map(Params::scope).toList();
    }

    public static String name(String name) {
        EntryRules.checkName(name == null ? "" : name);
        return name;
    }

    /** The order of a search: {@code name} when absent, else {@code name} or {@code relevance}. */
    public static SearchOrder searchOrder(String value) {
        return value == null || value.isEmpty() ? SearchOrder.NAME : SearchOrder.parse(value, "order");
    }

    /** A whole number from {@code field} between {@code min} and {@code max}, or {@code fallback} when absent. */
    public static long number(String value, String field, long min, long max, long fallback) {
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new Invalid("number-range", field, field + " must be a whole number from " + min + " to " + max
                + ", not \"" + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "\".");
    }
}
