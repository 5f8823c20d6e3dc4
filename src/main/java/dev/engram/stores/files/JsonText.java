package dev.engram.stores.files;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of one JSON text (RFC 8259), for the lines of an archive's journal: objects as maps in member
 * order, arrays as lists, strings, numbers as {@link BigDecimal}, booleans and null. A member named twice, trailing
 * text or a nesting deeper than {@value #MAX_DEPTH} is refused with {@link IllegalArgumentException}.
 */
final class JsonText {

    static final int MAX_DEPTH = 32;

    private final String s;
    private int i;

    private JsonText(String s) {
        this.s = s;
    }

    /** The value {@code text} holds. */
    static Object parse(String text) {
        JsonText p = new JsonText(text);
        p.space();
        Object v = p.value(0);
        p.space();
        if (p.i != text.length()) {
            throw p.fail("text after the value");
        }
        return v;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw fail("nested too deep");
        }
        if (i >= s.length()) {
            throw fail("the text ends early");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw fail("a member name expected");
            }
            String key = string();
            space();
            expect(':');
            space();
            if (m.containsKey(key)) {
                throw fail("member " + key + " named twice");
            }
            m.put(key, value(depth + 1));
            space();
            if (peek(',')) {
                i++;
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> array(int depth) {
        List<Object> a = new ArrayList<>();
        i++;
        space();
        if (peek(']')) {
            i++;
            return a;
        }
        while (true) {
            space();
            a.add(value(depth + 1));
            space();
            if (peek(',')) {
                i++;
                continue;
            }
            expect(']');
            return a;
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
            if (i >= s.length()) {
                throw fail("a string is not closed");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw fail("a control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw fail("a string is not closed");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw fail("a short \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw fail("a bad \\u escape");
                    }
                    i += 4;
                }
                default -> throw fail("a bad escape");
            }
        }
    }

    private Object number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        try {
            return new BigDecimal(s.substring(start, i));
        } catch (NumberFormatException e) {
            throw fail("not a JSON value");
        }
    }

    private Object word(String w, Object v) {
        if (!s.startsWith(w, i)) {
            throw fail("not a JSON value");
        }
        i += w.length();
        return v;
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw fail("'" + c + "' expected");
        }
        i++;
    }

    private void space() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
    }

    private IllegalArgumentException fail(String why) {
        return new IllegalArgumentException(why + " at character " + (i + 1));
    }
}
