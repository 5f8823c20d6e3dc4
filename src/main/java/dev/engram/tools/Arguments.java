package dev.engram.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A call's arguments, checked against the tool's schema with messages a model can act on. */
public final class Arguments {

    /** An argument the schema refuses; the message says how to call again. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final Map<String, Object> values;

    public Arguments(Map<String, Object> values) {
        this.values = values;
    }

    /** Refuses any argument but {@code names}. */
    public void only(String... names) {
        Set<String> allowed = Set.of(names);
        for (String key : values.keySet()) {
            if (!allowed.contains(key)) {
                throw new Refused("Unknown argument \"" + key + "\"; this tool takes " + String.join(", ", names)
                        + ".");
            }
        }
    }

    /** A string argument; null when absent and not required. */
    public String string(String name, boolean required) {
        Object v = values.get(name);
        if (v == null) {
            if (required) {
                throw new Refused(name + " is required.");
            }
            return null;
        }
        if (!(v instanceof String s)) {
            throw new Refused(name + " must be a string.");
        }
        return s;
    }

    /** An object of strings, or empty when absent. */
    public Optional<Map<String, String>> meta(String name) {
        Object v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new Refused(name + " must be an object of strings, such as {\"description\": \"...\"}.");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof String s)) {
                throw new Refused(name + "." + e.getKey() + " must be a string.");
            }
            out.put(String.valueOf(e.getKey()), s);
        }
        return Optional.of(out);
    }

    /** A list of strings, or empty when absent. */
    public Optional<List<String>> strings(String name) {
        Object v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof List<?> l)) {
            throw new Refused(name + " must be a list of strings.");
        }
        List<String> out = new ArrayList<>();
        for (Object item : l) {
            if (!(item instanceof String s)) {
                throw new Refused(name + " must be a list of strings.");
            }
            out.add(s);
        }
        return Optional.of(out);
    }

    /** A whole number between {@code min} and {@code max}, or empty when absent. */
    public Optional<Integer> integer(String name, int min, int max) {
        Object v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
                && n.doubleValue() >= min && n.doubleValue() <= max) {
            return Optional.of(n.intValue());
        }
        throw new Refused(name + " must be a whole number from " + min + " to " + max + ".");
    }

    /** A number between {@code min} and {@code max}, or empty when absent. */
    public Optional<Double> number(String name, double min, double max) {
        Object v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (v instanceof Number n && n.doubleValue() >= min && n.doubleValue() <= max) {
            return Optional.of(n.doubleValue());
        }
        throw new Refused(name + " must be a number from " + min + " to " + max + ".");
    }

    /** A boolean, or empty when absent. */
    Optional<Boolean> bool(String name) {
        Object v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (v instanceof Boolean b) {
            return Optional.of(b);
        }
        throw new Refused(name + " must be true or false.");
    }
}
