package dev.engram.contexts.messages;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A short hint of what a tool call was about, read from its JSON input: the first of path, file_path, file,
 * pattern, query, command, url that is present (cut to 60 code points when over 60 bytes), else the first non-empty
 * string of at most 60 bytes in key order, else "". An input that is not a JSON object gives "".
 */
public final class InputHint {

    static final List<String> KEYS = List.of("path", "file_path", "file", "pattern", "query", "command", "url");
    static final int MAX = 60;

    private static final Comparator<String> BY_CODE_POINT = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private InputHint() {
    }

    /** The hint of {@code input} (JSON text). */
    public static String of(String input) {
        Optional<Object> parsed = JsonValue.parse(input);
        if (parsed.isEmpty() || !(parsed.get() instanceof Map<?, ?> raw)) {
            return "";
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) raw;
        for (String key : KEYS) {
            if (object.containsKey(key)) {
                String shown = shown(object.get(key));
                return Text.utf8Length(shown) > MAX ? Text.truncate(shown, MAX) : shown;
            }
        }
        List<String> keys = new ArrayList<>(object.keySet());
        keys.sort(BY_CODE_POINT);
        for (String key : keys) {
            if (object.get(key) instanceof String s && !s.isEmpty() && Text.utf8Length(s) <= MAX) {
                return s;
            }
        }
        return "";
    }

    /** A value as Go's {@code fmt.Sprint} shows it: maps as {@code map[k:v]} in key order, lists as {@code [a b]}. */
    static String shown(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Double d) {
            return number(d);
        }
        if (value instanceof Map<?, ?> map) {
            List<String> keys = new ArrayList<>();
            map.keySet().forEach(k -> keys.add((String) k));
            keys.sort(BY_CODE_POINT);
            List<String> entries = new ArrayList<>();
            for (String key : keys) {
                entries.add(key + ":" + shown(map.get(key)));
            }
            return "map[" + String.join(" ", entries) + "]";
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(shown(item)));
            return "[" + String.join(" ", items) + "]";
        }
        return String.valueOf(value);
    }

    /** A double as Go's {@code %v}: shortest digits, in exponent form when the exponent is below -4 or at least 6. */
    static String number(double d) {
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = exact.unscaledValue().toString();
        int exponent = digits.length() - 1 - exact.scale();
        String sign = d < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 6) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
        }
        return sign + exact.toPlainString();
    }
}
