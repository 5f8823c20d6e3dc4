package dev.engram.documents.tool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One command of Claude's memory tool ({@code memory_20250818}) as the model sent it, its paths as sent (under
 * {@code /memories}). {@link #parse} reads a tool-use input; what it cannot read is {@link Malformed}, answered as an
 * error the model can fix.
 */
sealed interface MemoryCommand {

    record View(String path, Optional<List<Long>> viewRange) implements MemoryCommand {
    }

    record Create(String path, String fileText) implements MemoryCommand {
    }

    record StrReplace(String path, String oldStr, String newStr) implements MemoryCommand {
    }

    record Insert(String path, long insertLine, String insertText) implements MemoryCommand {
    }

    record Delete(String path) implements MemoryCommand {
    }

    record Rename(String oldPath, String newPath) implements MemoryCommand {
    }

    /** An input that is no command: {@code message} says what to send. */
    record Malformed(String message) implements MemoryCommand {
    }

    /** The command {@code input} holds. */
    static MemoryCommand parse(Map<String, Object> input) {
        Object command = input.get("command");
        if (!(command instanceof String name)) {
            return new Malformed("Error: The command field is required: one of view, create, str_replace, insert, "
                    + "delete, rename.");
        }
        try {
            return switch (name) {
                case "view" -> new View(text(input, "path"), range(input.get("view_range")));
                case "create" -> new Create(text(input, "path"), text(input, "file_text"));
                case "str_replace" -> new StrReplace(text(input, "path"), text(input, "old_str"),
                        optionalText(input, "new_str"));
                case "insert" -> new Insert(text(input, "path"), whole(input, "insert_line"),
                        text(input, "insert_text"));
                case "delete" -> new Delete(text(input, "path"));
                case "rename" -> new Rename(text(input, "old_path"), text(input, "new_path"));
                default -> new Malformed("Error: Unknown command: " + name + ". Use one of view, create, "
                        + "str_replace, insert, delete, rename.");
            };
        } catch (IllegalArgumentException e) {
            return new Malformed(e.getMessage());
        }
    }

    private static String text(Map<String, Object> input, String field) {
        Object v = input.get(field);
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("Error: The " + field + " field is required and must be a string.");
        }
        return s;
    }

    private static String optionalText(Map<String, Object> input, String field) {
        return input.get(field) == null ? "" : text(input, field);
    }

    private static long whole(Map<String, Object> input, String field) {
        Object v = input.get(field);
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue();
        }
        throw new IllegalArgumentException("Error: The " + field + " field is required and must be an integer.");
    }

    private static Optional<List<Long>> range(Object v) {
        if (v == null) {
            return Optional.empty();
        }
        if (v instanceof List<?> list && list.size() == 2 && list.stream().allMatch(n -> n instanceof Integer
                || n instanceof Long)) {
            return Optional.of(list.stream().map(n -> ((Number) n).longValue()).toList());
        }
        throw new IllegalArgumentException("Error: view_range must be a list of two integers, such as [1, 10].");
    }
}
