package dev.engram.tools;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of one tool call: {@code output}, the text for the model; whether it is an error the model can fix by
 * calling again differently; and {@code details}, the journal record of a write, never shown to the model.
 *
 * @param refusal for an error, what kind of refusal it was ({@code invalid}, {@code too_large}, {@code conflict},
 *     {@code not_found}), for metrics; empty otherwise
 */
public record ToolResult(String output, boolean isError, Optional<WriteRecord> details, Optional<String> refusal) {

    public ToolResult {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(details, "details");
        Objects.requireNonNull(refusal, "refusal");
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
}
