package dev.engram.rest;

/**
 * UTF-8 as RFC 3629 defines it, strictly: no overlong forms (C0 AF is not "/"), no surrogates, nothing above
 * U+10FFFF, no truncated sequence. NUL is refused too: JSON text never holds it raw, and UTF-16 and UTF-32 text,
 * which a parser that detects encodings would read, always does.
 */
public final class StrictUtf8 {

    private StrictUtf8() {
    }

    /** The offset of the first byte that is NUL or not part of well-formed UTF-8, or -1 when there is none. */
    public static int firstInvalid(byte[] b) {
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            if (c == 0) {
                return i;
            }
            if (c < 0x80) {
                i++;
                continue;
            }
            int more;
            int min = 0x80;
            int max = 0xbf;
            if (c >= 0xc2 && c <= 0xdf) {
                more = 1;
            } else if (c >= 0xe0 && c <= 0xef) {
                more = 2;
                min = c == 0xe0 ? 0xa0 : 0x80;
                max = c == 0xed ? 0x9f : 0xbf;
            } else if (c >= 0xf0 && c <= 0xf4) {
                more = 3;
                min = c == 0xf0 ? 0x90 : 0x80;
                max = c == 0xf4 ? 0x8f : 0xbf;
            } else {
                return i;
            }
            if (i + more >= b.length || (b[i + 1] & 0xff) < min || (b[i + 1] & 0xff) > max) {
                return i;
            }
            for (int k = 2; k <= more; k++) {
                if ((b[i + k] & 0xc0) != 0x80) {
                    return i;
                }
            }
            i += more + 1;
        }
        return -1;
    }
}
