package dev.engram.documents.stores;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;
import java.util.Map;

/**
 * The rules of a memory store's profile, the Memory Stores API's: a name of 1 to {@value #MAX_NAME} characters and a
 * description of at most {@value #MAX_DESCRIPTION}, neither with a control character; metadata of at most
 * {@value #MAX_PAIRS} pairs (a description and values may hold line breaks and tabs), keys of 1 to {@value #MAX_KEY} characters, values of at most {@value #MAX_VALUE}.
 * Characters are counted as code points.
 */
public final class ProfileRules {

    public static final int MAX_NAME = 255;
    public static final int MAX_DESCRIPTION = 1024;
    public static final int MAX_PAIRS = 16;
    public static final int MAX_KEY = 64;
    public static final int MAX_VALUE = 512;

    private ProfileRules() {
    }

    /** {@code name} if a store may be called it, else {@link Invalid}. */
    public static String name(String name) {
        if (name == null || name.isEmpty()) {
            throw new Invalid("name-missing", "name", "A memory store needs a name of 1 to " + MAX_NAME
                    + " characters, such as \"Project notes\".");
        }
        return text(name, "name", MAX_NAME, false);
    }

    /** {@code description} ("" clears it) if a store may hold it, else {@link Invalid}. */
    public static String description(String description) {
        return text(description, "description", MAX_DESCRIPTION, true);
    }

    /**
     * Checks each pair of {@code metadata} (a null value, in an update, removes its key) and that {@code pairs}, the
     * number of pairs the store would hold, is within the bound.
     */
    public static void metadata(Map<String, String> metadata, int pairs) {
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            String key = e.getKey();
            int length = key.codePointCount(0, key.length());
            if (length < 1 || length > MAX_KEY) {
                throw new Invalid("metadata-key", "metadata", "Metadata key \"" + shown(key) + "\" is " + length
                        + " characters; keys are 1 to " + MAX_KEY + ".");
            }
            text(key, "metadata", MAX_KEY, false);
            if (e.getValue() != null) {
                text(e.getValue(), "metadata." + key, MAX_VALUE, true);
            }
        }
        if (pairs > MAX_PAIRS) {
            throw new Invalid("metadata-pairs", "metadata", "The metadata would hold " + pairs + " pairs; the most is "
                    + MAX_PAIRS + ". Remove keys (set them to null) before adding others.");
        }
    }

    private static String text(String value, String field, int max, boolean lines) {
        if (Utf8.firstUnstorable(value) >= 0) {
            throw new Invalid("text-characters", field, "The " + field + " holds a NUL or an unpaired surrogate; "
                    + "send text.");
        }
        int length = value.codePointCount(0, value.length());
        if (length > max) {
            throw new Invalid(field.startsWith("metadata") ? "metadata-value" : field + "-length", field, "The "
                    + field + " is " + length + " characters, over the limit of " + max + "; shorten it.");
        }
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            if (Character.getType(c) == Character.CONTROL && !(lines && (c == '\n' || c == '\r' || c == '\t'))) {
                throw new Invalid("text-characters", field, String.format("The %s holds the control character "
                        + "U+%04X at index %d; remove it.", field, c, i));
            }
            i += Character.charCount(c);
        }
        return value;
    }

    private static String shown(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
