package dev.engram.kernel;

import java.util.Objects;

/**
 * Input that breaks a rule: which {@code rule}, on which {@code field}, and a message that says how to fix it.
 * Rules are stable kebab-case words such as {@code name-format} or {@code meta-size}.
 */
public final class Invalid extends EngramException {

    private final String rule;
    private final String field;

    public Invalid(String rule, String field, String message) {
        super(message);
        this.rule = Objects.requireNonNull(rule, "rule");
        this.field = Objects.requireNonNull(field, "field");
    }

    /** The rule broken, a stable kebab-case word. */
    public String rule() {
        return rule;
    }

    /** The field that broke it: {@code scope}, {@code name}, {@code content}, {@code meta.<key>}, ... */
    public String field() {
        return field;
    }
}
