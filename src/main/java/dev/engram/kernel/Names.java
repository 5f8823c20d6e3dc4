package dev.engram.kernel;

/** The grammar every name in a store follows: the store's own, scopes, entry names, meta keys, grants' patterns. */
public final class Names {

    public static final int MAX_BYTES = 64;

    private Names() {
    }

    /**
     * Whether {@code s} is kebab-case: lowercase ASCII letters and digits in groups joined by single hyphens,
     * between 1 and {@link #MAX_BYTES} bytes. Stores, scopes, names and meta keys all follow it.
     */
    public static boolean valid(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_BYTES) {
            return false;
        }
        boolean afterHyphen = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-') {
                if (afterHyphen) {
                    return false;
                }
                afterHyphen = true;
            } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
                afterHyphen = false;
            } else {
                return false;
            }
        }
        return !afterHyphen;
    }
}
