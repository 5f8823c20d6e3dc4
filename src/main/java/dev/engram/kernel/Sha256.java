package dev.engram.kernel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 digests in lowercase hex: the one digest every tier's hashes are made of. */
public final class Sha256 {

    private static final HexFormat HEX = HexFormat.of();

    private Sha256() {
    }

    /** The hex digest of {@code text}'s UTF-8 bytes. */
    public static String hex(String text) {
        return hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The hex digest of {@code bytes}. */
    public static String hex(byte[] bytes) {
        return HEX.formatHex(digest().digest(bytes));
    }

    /** {@code prefix} followed by the hex digest of {@code text}'s UTF-8 bytes, made as one string. */
    public static String hex(String prefix, String text) {
        StringBuilder out = new StringBuilder(prefix.length() + 64).append(prefix);
        return HEX.formatHex(out, digest().digest(text.getBytes(StandardCharsets.UTF_8))).toString();
    }

    /**
     * A fresh SHA-256 digest, cloned from one looked up once: the provider lookup of {@code getInstance} cost more
     * than digesting a short text (a point read digests its entry's version and its caller's key).
     */
    private static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return lookUp();
        }
    }

    private static final MessageDigest PROTOTYPE = lookUp();

    private static MessageDigest lookUp() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
