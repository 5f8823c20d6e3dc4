package dev.engram.memory;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Content hashes: {@code sha256:} and the lowercase hex digest of the content's UTF-8 bytes. */
public final class Hash {

    /** What every hash starts with. */
    public static final String PREFIX = "sha256:";

    private static final Pattern FORM = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final HexFormat HEX = HexFormat.of();

    private Hash() {
    }

    /** The hash of {@code content}. */
    public static String of(String content) {
        return of(Entry.utf8(content));
    }

    /** The hash of {@code bytes}. */
    public static String of(byte[] bytes) {
        try {
            return PREFIX + HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Whether {@code s} has the form of a hash. */
    public static boolean isHash(String s) {
        return s != null && FORM.matcher(s).matches();
    }
}
