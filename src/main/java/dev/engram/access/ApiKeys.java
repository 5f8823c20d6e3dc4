package dev.engram.access;

import dev.engram.entries.Hash;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * API keys: {@code eng_} and 43 characters of URL-safe base64, 256 bits from a {@link SecureRandom}. The prefix lets
 * secret scanners find a leaked key; the store keeps only {@link #hash}, so a copy of the database reveals no key.
 * One SHA-256 is enough: a key has 256 bits of entropy, so there is nothing for a slow hash to protect.
 */
public final class ApiKeys {

    /** What every key starts with. */
    public static final String PREFIX = "eng_";

    /** Random bytes in a key. */
    static final int BYTES = 32;

    /** Characters after the prefix: 32 bytes in base64 without padding. */
    static final int BODY_LENGTH = 43;

    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

    private ApiKeys() {
    }

    /** A new key. */
    public static String generate(SecureRandom random) {
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return PREFIX + URL_SAFE.encodeToString(bytes);
    }

    /** Whether {@code id} has the shape of a key id: {@code key_} and 1 to 64 URL-safe characters. */
    public static boolean isId(String id) {
        return id != null && id.matches("key_[A-Za-z0-9_-]{1,64}");
    }

    /** A new key id, not secret: {@code key_} and 16 URL-safe characters. */
    public static String newId(SecureRandom random) {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return "key_" + URL_SAFE.encodeToString(bytes);
    }

    /** What the store keeps of {@code key}: {@code sha256:} and the hex digest of its UTF-8 bytes. */
    public static String hash(String key) {
        return Hash.of(key);
    }

    /** Whether {@code token} has the form of a key, so that nothing else is looked up. */
    public static boolean hasKeyForm(String token) {
        if (token == null || token.length() != PREFIX.length() + BODY_LENGTH || !token.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < token.length(); i++) {
            char c = token.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
                    || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
