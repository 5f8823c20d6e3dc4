package dev.engram.tools;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of one tool call: {@code output}, the text for the model; whether it is an error the model can fix by
 * calling again differently; and {@code details}, the journal record of a write, never shown to the model.
 *
 * @param refusal for an error, what kind of refusal it was ({@code invalid}, {@code too_large}, {@code conflict},
 *     {@code not_found}), for metrics; empty otherwise
 * @param replayed whether this is the first call's answer to a call sent again under its idempotency key: it wrote
 *     nothing now, so a host counts nothing and marks the answer replayed
 */
public record ToolResult(String output, boolean isError, Optional<WriteRecord> details, Optional<String> refusal,
        boolean replayed) {

    public ToolResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(details, "details");
        Objects.requireNonNull(refusal, "refusal");
    }

    /** A result of a call made now (not replayed). */
    public ToolResult(String output, boolean isError, Optional<WriteRecord> details, Optional<String> refusal) {
        this(output, isError, details, refusal, false);
    }

    public static ToolResult text(String output) {
        return new ToolResult(output, false, Optional.empty(), Optional.empty());
    }

    public static ToolResult wrote(String output, WriteRecord record) {
        return new ToolResult(output, false, Optional.of(record), Optional.empty());
    }

    public static ToolResult error(String kind, String output) {
        return new ToolResult(output, true, Optional.empty(), Optional.of(kind));
    }

    /** The first call's answer, {@code output} and its record if it has one, to a call sent again under its key. */
    public static ToolResult replayed(String output, Optional<WriteRecord> first) {
        return new ToolResult(output, false, first, Optional.empty(), true);
    }
}
