package dev.engram.access;

/** Echoes caller-supplied text in messages: control characters escaped, long values cut. */
final class Text {

    private static final int MAX_SHOWN = 40;

    private Text() {
    }

    static String shown(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && out.length() < MAX_SHOWN; i++) {
            char c = s.charAt(i);
            out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.length() < s.length() ? out + "..." : out.toString();
    }
}
