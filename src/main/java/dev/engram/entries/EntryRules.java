package dev.engram.entries;

import dev.engram.kernel.Names;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import dev.engram.kernel.Utf8;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * The rules every store enforces on a write, in one place: {@link #check} is called by every {@link Store#put}
 * before anything is written, so the rules and their order are the same everywhere.
 */
public final class EntryRules {

    /** The most bytes a store, scope, name or meta key may have. */
    public static final int MAX_NAME_BYTES = Names.MAX_BYTES;
    /** The most bytes an entry's meta may take, keys and values together, apart from the content bound. */
    public static final int MAX_META_BYTES = 1024;
    /** The content bound a store starts with. */
    public static final int DEFAULT_MAX_ENTRY_BYTES = 4096;
    /** Meta keys a store sets itself, which a caller may not. */
    public static final Set<String> RESERVED_META_KEYS = Set.of("name", "updated");

    private EntryRules() {
    }

    /**
     * Refuses what a store refuses, in this order: a scope or name that is not kebab-case of 1 to 64 bytes, empty
     * content, content that is not UTF-8 (an unpaired surrogate) or holds NUL, a meta key that is not a name or is
     * reserved, a meta value with a line break, NUL or surrounding space, meta over {@link #MAX_META_BYTES} together
     * (each an {@link Invalid}); and content over {@code limit} as {@link TooLarge}, with the live entry's size from
     * {@code storedSize} (-1 for none), which is only asked for then.
     */
    public static void check(Entry e, int limit, IntSupplier storedSize) {
        checkShape(e);
        int size = e.size();
        if (size > limit) {
            throw new TooLarge(e.scope(), e.name(), size, limit, storedSize.getAsInt());
        }
    }

    /** Every rule of {@link #check} but the content bound, which needs the store. */
    public static void checkShape(Entry e) {
        checkScope(e.scope());
        checkName(e.name());
        if (e.content().isEmpty()) {
            throw new Invalid("content-empty", "content", "Content is empty. Write what the entry remembers, "
                    + "or forget the entry to remove it.");
        }
        checkText(e.content(), "content");
        checkMeta(e.meta());
    }

    /** Refuses a scope that is not a name. */
    public static void checkScope(Scope scope) {
        if (!scope.isValid()) {
            throw new Invalid("scope-format", "scope", "Scope \"" + printable(scope.value()) + "\" is not "
                    + "kebab-case: use 1 to " + MAX_NAME_BYTES + " lowercase letters and digits in groups "
                    + "joined by single hyphens, such as user or project.");
        }
    }

    /** Refuses an entry name that is not a name. */
    public static void checkName(String name) {
        checkName(name, "name", "Name");
    }

    /** Refuses a store ID that is not a name. */
    public static void checkStoreId(String id) {
        checkName(id, "store", "Store");
    }

    private static void checkName(String value, String field, String label) {
        if (!validName(value)) {
            throw new Invalid(field + "-format", field, label + " \"" + printable(value) + "\" is not kebab-case: "
                    + "use 1 to " + MAX_NAME_BYTES + " lowercase letters and digits in groups joined by single "
                    + "hyphens, such as " + (field.equals("store") ? "acme-prod" : "coding-style") + ".");
        }
    }

    /** Whether {@code s} follows the name grammar ({@link Names#valid}). */
    public static boolean validName(String s) {
        return Names.valid(s);
    }

    private static void checkMeta(Map<String, String> meta) {
        int bytes = 0;
        for (Map.Entry<String, String> kv : meta.entrySet()) {
            String key = kv.getKey();
            String value = kv.getValue();
            if (!validName(key)) {
                throw new Invalid("meta-key-format", "meta", "Meta key \"" + printable(key) + "\" is not "
                        + "kebab-case: use 1 to " + MAX_NAME_BYTES + " lowercase letters and digits joined by "
                        + "single hyphens, such as description.");
            }
            if (RESERVED_META_KEYS.contains(key)) {
                throw new Invalid("meta-key-reserved", "meta." + key, "Meta key \"" + key + "\" is set by the "
                        + "store; leave it out.");
            }
            String field = "meta." + key;
            if (value == null) {
                throw new Invalid("meta-value-type", field, "Meta value of " + key + " is null; give a string, "
                        + "or leave the key out.");
            }
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                throw new Invalid("meta-value-line", field, "Meta value of " + key + " holds a line break; "
                        + "meta values are one line each. Put longer text in the content.");
            }
            if (!value.isEmpty() && (isSpace(value.charAt(0)) || isSpace(value.charAt(value.length() - 1)))) {
                throw new Invalid("meta-value-space", field, "Meta value of " + key + " starts or ends with "
                        + "white space; trim it.");
            }
            checkText(value, field);
            bytes += Utf8.length(key) + Utf8.length(value);
        }
        if (bytes > MAX_META_BYTES) {
            throw new Invalid("meta-size", "meta", "Meta takes " + bytes + " bytes, keys and values together, "
                    + "over the limit of " + MAX_META_BYTES + ". Shorten the values by at least "
                    + (bytes - MAX_META_BYTES) + " bytes, or move the text into the content.");
        }
    }

    /** Refuses text that is not UTF-8 (an unpaired surrogate) or holds NUL, which PostgreSQL cannot store. */
    private static void checkText(String s, String field) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                throw new Invalid(field.equals("content") ? "content-nul" : "meta-value-nul", field,
                        "The " + field + " holds a NUL character (\\u0000), which cannot be stored; remove it.");
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new Invalid(field.equals("content") ? "content-encoding" : "meta-value-encoding", field,
                        "The " + field + " is not valid UTF-8: it holds an unpaired surrogate at character " + i
                                + ". Send well-formed Unicode text.");
            }
        }
    }

    /** White space as Go's unicode.IsSpace sees it, which the reference library's rule uses. */
    static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085';
    }

    /** Shows a rejected value in a message, shortened and without control characters. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 80; i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return s.length() > 80 ? b + "..." : b.toString();
    }
}
