package dev.engram.kernel;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 digests in lowercase hex: the one digest every tier's hashes are made of. */
public final class Sha256 {

    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Sha256() {
    }

    /** The hex digest of {@code text}'s UTF-8 bytes. */
    public static String hex(String text) {
        return hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The hex digest of {@code bytes}. */
    public static String hex(byte[] bytes) {
        return written("", digest().digest(bytes));
    }

    /** {@code prefix} followed by the hex digest of {@code text}'s UTF-8 bytes, made as one string. */
    public static String hex(String prefix, String text) {
        return written(prefix, digest().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * {@code prefix} and {@code digest}'s hex as one Latin-1 string, written straight into its bytes: a point read
     * writes two digests (its entry's version, its caller's key), and {@code HexFormat} appending a character at a
     * time cost as much as the digest itself. A prefix that is not ASCII is joined the plain way.
     */
    static String written(String prefix, byte[] digest) {
        int at = prefix.length();
        byte[] out = new byte[at + 2 * digest.length];
        for (int i = 0; i < at; i++) {
            char c = prefix.charAt(i);
            if (c > 0x7f) {
                return prefix + written("", digest);
            }
            out[i] = (byte) c;
        }
        for (byte b : digest) {
            out[at++] = DIGITS[(b >> 4) & 0xf];
            out[at++] = DIGITS[b & 0xf];
        }
        return new String(out, StandardCharsets.ISO_8859_1);
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
