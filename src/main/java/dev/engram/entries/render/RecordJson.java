package dev.engram.entries.render;

import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for manifest records, written byte for byte as the reference library's encoder writes it (so that record
 * sizes, and the choice between a whole record and a delta, are the same), and read leniently enough to take any
 * record it writes. The core has no JSON library, and needs none for this.
 */
final class RecordJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RecordJson() {
    }

    // ------------------------------------------------------------------------------------------ writing

    /** Writes {@code s} as a JSON string, escaping as Go's encoding/json does (HTML characters included). */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        out.append("\\u00").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A manifest entry as an object: scope, name, hash, bytes, and reason when it has one. */
    static void entry(StringBuilder out, ManifestEntry e, String indent) {
        String nl = indent == null ? "" : "\n" + indent + "  ";
        String colon = indent == null ? ":" : ": ";
        out.append('{').append(nl).append("\"scope\"").append(colon);
        string(out, e.scope().value());
        out.append(',').append(nl).append("\"name\"").append(colon);
        string(out, e.name());
        out.append(',').append(nl).append("\"hash\"").append(colon);
        string(out, e.hash());
        out.append(',').append(nl).append("\"bytes\"").append(colon).append(e.bytes());
        if (!e.reason().isEmpty()) {
            out.append(',').append(nl).append("\"reason\"").append(colon);
            string(out, e.reason());
        }
        out.append(indent == null ? "" : "\n" + indent).append('}');
    }

    /** The whole record of {@code m}, compact, or indented by two spaces when {@code indented}. */
    static String whole(Manifest m, boolean indented) {
        StringBuilder out = new StringBuilder(64 + 120 * (m.entries().size() + m.omitted().size()));
        String in = indented ? "  " : null;
        out.append('{').append(indented ? "\n  " : "").append("\"entries\"").append(indented ? ": " : ":");
        list(out, m.entries(), in);
        if (!m.omitted().isEmpty()) {
            out.append(',').append(indented ? "\n  " : "").append("\"omitted\"").append(indented ? ": " : ":");
            list(out, m.omitted(), in);
        }
        out.append(indented ? "\n}" : "}");
        return out.toString();
    }

    private static void list(StringBuilder out, List<ManifestEntry> entries, String indent) {
        if (entries.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append('[');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            if (indent != null) {
                out.append('\n').append(indent).append("  ");
            }
            entry(out, entries.get(i), indent == null ? null : indent + "  ");
        }
        if (indent != null) {
            out.append('\n').append(indent);
        }
        out.append(']');
    }

    // ------------------------------------------------------------------------------------------ reading

    /** Parses one JSON value: objects as ordered maps, arrays as lists, numbers as longs or doubles. */
    static Object parse(String text) {
        Reader r = new Reader(text);
        r.space();
        Object value = r.value();
        r.space();
        if (r.at < text.length()) {
            throw r.error("unexpected text after the record");
        }
        return value;
    }

    private static final class Reader {
        final String s;
        int at;

        Reader(String s) {
            this.s = s;
        }

        Invalid error(String what) {
            return new Invalid("manifest-record", "record", "The manifest record is not valid JSON: " + what
                    + " at character " + at + ".");
        }

        void space() {
            while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) {
                at++;
            }
        }

        Object value() {
            if (at >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(at);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> word("true", Boolean.TRUE);
                case 'f' -> word("false", Boolean.FALSE);
                case 'n' -> word("null", null);
                default -> number();
            };
        }

        Object word(String w, Object v) {
            if (!s.startsWith(w, at)) {
                throw error("unexpected character");
            }
            at += w.length();
            return v;
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            at++;
            space();
            if (peek('}')) {
                at++;
                return m;
            }
            while (true) {
                space();
                if (!peek('"')) {
                    throw error("expected a member name");
                }
                String key = string();
                space();
                expect(':');
                space();
                m.put(key, value());
                space();
                if (peek(',')) {
                    at++;
                } else {
                    expect('}');
                    return m;
                }
            }
        }

        List<Object> array() {
            List<Object> list = new ArrayList<>();
            at++;
            space();
            if (peek(']')) {
                at++;
                return list;
            }
            while (true) {
                space();
                list.add(value());
                space();
                if (peek(',')) {
                    at++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }

        String string() {
            StringBuilder b = new StringBuilder();
            at++;
            while (at < s.length()) {
                char c = s.charAt(at++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (at >= s.length()) {
                    break;
                }
                char e = s.charAt(at++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (at + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                        } catch (NumberFormatException bad) {
                            throw error("bad \\u escape");
                        }
                        at += 4;
                    }
                    default -> b.append(e);
                }
            }
            throw error("unterminated string");
        }

        Object number() {
            int start = at;
            while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) {
                at++;
            }
            String n = s.substring(start, at);
            try {
                return n.matches("-?\\d+") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
            } catch (NumberFormatException bad) {
                at = start;
                throw error("unexpected character");
            }
        }

        boolean peek(char c) {
            return at < s.length() && s.charAt(at) == c;
        }

        void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
            at++;
        }
    }
}
