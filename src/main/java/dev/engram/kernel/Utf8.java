package dev.engram.kernel;

/** UTF-8 lengths without encoding: every bound in Engram counts bytes, as the model's window does. */
public final class Utf8 {

    private Utf8() {
    }

    /** The UTF-8 length of {@code s}, counting an unpaired surrogate as the 3 bytes a lenient encoder writes. */
    public static int length(CharSequence s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** The index of the first character PostgreSQL cannot keep (a NUL, an unpaired surrogate), or -1 for none. */
    public static int firstUnstorable(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                return i;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
