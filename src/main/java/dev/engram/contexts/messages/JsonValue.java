package dev.engram.contexts.messages;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A small strict JSON reader for tool-call inputs, enough to read hints from them: objects become maps (a repeated
 * key keeps its last value), arrays lists, numbers doubles, and {@code null} {@link #NULL}. Anything that is not
 * exactly one JSON value (surrounded by white space) reads as empty.
 */
final class JsonValue {

    /** JSON {@code null}. */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "<nil>";
        }
    };

    private final String text;
    private int at;

    private JsonValue(String text) {
        this.text = text;
    }

    /** The value {@code text} holds, or empty when it is not valid JSON. */
    static Optional<Object> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        JsonValue reader = new JsonValue(text);
        try {
            reader.skipSpace();
            Object value = reader.value(0);
            reader.skipSpace();
            return reader.at == text.length() ? Optional.of(value) : Optional.empty();
        } catch (IllegalArgumentException | IndexOutOfBoundsException malformed) {
            return Optional.empty();
        }
    }

    private Object value(int depth) {
        if (depth > 1000) {
            throw new IllegalArgumentException("too deep");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", NULL);
            default:
                return number();
        }
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (text.charAt(at) == '}') {
            at++;
            return map;
        }
        while (true) {
            skipSpace();
            if (text.charAt(at) != '"') {
                throw new IllegalArgumentException("key");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            map.remove(key);
            map.put(key, value(depth + 1));
            skipSpace();
            char c = text.charAt(at++);
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw new IllegalArgumentException("object");
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        at++;
        skipSpace();
        if (text.charAt(at) == ']') {
            at++;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value(depth + 1));
            skipSpace();
            char c = text.charAt(at++);
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                throw new IllegalArgumentException("array");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw new IllegalArgumentException("control character");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    String hex = text.substring(at, at + 4);
                    if (!hex.chars().allMatch(h -> Character.digit(h, 16) >= 0)) {
                        throw new IllegalArgumentException("escape");
                    }
                    out.append((char) Integer.parseInt(hex, 16));
                    at += 4;
                }
                default -> throw new IllegalArgumentException("escape");
            }
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw new IllegalArgumentException("literal");
        }
        at += word.length();
        return value;
    }

    private Double number() {
        int start = at;
        if (text.charAt(at) == '-') {
            at++;
        }
        if (text.charAt(at) == '0') {
            at++;
        } else {
            digits();
        }
        if (at < text.length() && text.charAt(at) == '.') {
            at++;
            digits();
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            at++;
            if (text.charAt(at) == '+' || text.charAt(at) == '-') {
                at++;
            }
            digits();
        }
        return new BigDecimal(text.substring(start, at)).doubleValue();
    }

    private void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw new IllegalArgumentException("digits");
        }
    }

    private void expect(char c) {
        if (text.charAt(at++) != c) {
            throw new IllegalArgumentException("expected " + c);
        }
    }

    private void skipSpace() {
        while (at < text.length() && " \t\n\r".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }
}
