package dev.engram.entries;

import dev.engram.kernel.Sha256;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Content hashes, {@code sha256:} and the lowercase hex digest of the content's UTF-8 bytes; and entry versions,
 * {@code v:} and the hex digest of the content hash and the meta, which change when either does.
 */
public final class Hash {

    /** What every hash starts with. */
    public static final String PREFIX = "sha256:";

    /** What every version starts with. */
    public static final String VERSION_PREFIX = "v:";

    private static final Pattern FORM = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final Pattern VERSION_FORM = Pattern.compile("v:[0-9a-f]{64}");

    private Hash() {
    }

    /** The hash of {@code content}. */
    public static String of(String content) {
        return Sha256.hex(PREFIX, content);
    }

    /** The hash of {@code bytes}. */
    public static String of(byte[] bytes) {
        return PREFIX + Sha256.hex(bytes);
    }

    /**
     * The version of an entry whose content has {@code contentHash} and whose meta is {@code meta}: the digest of the
     * UTF-8 bytes of the content hash followed, for each meta key in byte order, by a line feed, the key, {@code =}
     * and the value. Keys are kebab-case and values hold no line break, so the text is unambiguous; the database
     * computes the same text in {@code engram_version}.
     */
    public static String version(String contentHash, Map<String, String> meta) {
        StringBuilder text = new StringBuilder(contentHash);
        Map<String, String> ordered = meta.size() < 2
                || meta instanceof SortedMap<String, String> sorted && sorted.comparator() == null ? meta
                : new TreeMap<>(meta);
        ordered.forEach((key, value) -> text.append('\n').append(key).append('=').append(value));
        return Sha256.hex(VERSION_PREFIX, text.toString());
    }

    /** Whether {@code s} has the form of a version. */
    public static boolean isVersion(String s) {
        return s != null && VERSION_FORM.matcher(s).matches();
    }

    /** Whether {@code s} has the form of a hash. */
    public static boolean isHash(String s) {
        return s != null && FORM.matcher(s).matches();
    }
}
