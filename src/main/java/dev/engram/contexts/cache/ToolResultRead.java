package dev.engram.contexts.cache;

import java.util.Arrays;
import java.util.Optional;

/**
 * The tool {@code tool_result_read} as a pure function over a {@link ToolResultCache}: a window of lines of a
 * cached output, or one whole line. Lines are split on {@code \n}; the window is clamped to the output and to
 * {@link #MAX_LINES} lines. The hash is echoed as the caller gave it.
 */
public final class ToolResultRead {

    /** The tool's name. */
    public static final String NAME = "tool_result_read";
    /** The lines a read returns by default, and at most. */
    public static final int MAX_LINES = 500;
    /** What the tool answers when the call gives no hash. */
    public static final String HASH_REQUIRED = "validation error: hash is required";

    private ToolResultRead() {
    }

    /** What the tool answers: its text, and whether that text reports an error to the model. */
    public record Answer(String text, boolean error) {
    }

    /**
     * Reads the output {@code hash} names: lines {@code startLine} (1 when ≤ 0) to {@code startLine + numLines − 1}
     * ({@code numLines} 500 when ≤ 0, at most 500), or only line {@code line} when it is above 0.
     */
    public static Answer read(ToolResultCache cache, String hash, int startLine, int numLines, int line) {
        String asked = hash == null ? "" : hash;
        if (asked.isEmpty()) {
            return new Answer(HASH_REQUIRED, true);
        }
        Optional<CachedResult> found = cache.get(asked);
        if (found.isEmpty()) {
            return new Answer(notFound(asked), true);
        }
        return read(found.get(), asked, startLine, numLines, line);
    }

    /** What the tool answers when no cached output answers to {@code hash}. */
    public static String notFound(String hash) {
        return "No cached result found for hash: " + hash + ". The cache entry may have expired or the hash is "
                + "incorrect.";
    }

    /** Reads {@code entry}, found under {@code hash} (echoed as given), as the read through a cache does. */
    public static Answer read(CachedResult entry, String hash, int startLine, int numLines, int line) {
        String asked = hash == null ? "" : hash;
        String[] lines = entry.content().split("\n", -1);
        int total = lines.length;
        if (line > 0) {
            if (line > total) {
                return new Answer("[Line " + line + " is past end of cached " + entry.toolName() + " result ("
                        + total + " lines) | hash: " + asked + "]", false);
            }
            return new Answer("[Line " + line + " of " + total + " from cached " + entry.toolName()
                    + " result | hash: " + asked + "]\n" + lines[line - 1], false);
        }
        int count = numLines <= 0 ? MAX_LINES : Math.min(numLines, MAX_LINES);
        int start = Math.min(startLine <= 0 ? 1 : startLine, total);
        int end = (int) Math.min((long) start + count - 1, total);
        StringBuilder text = new StringBuilder("[Lines ").append(start).append('-').append(end).append(" of ")
                .append(total).append(" from cached ").append(entry.toolName()).append(" result | hash: ")
                .append(asked).append("]\n").append(String.join("\n", Arrays.copyOfRange(lines, start - 1, end)));
        if (end < total) {
            text.append("\n\n[Use tool_result_read(hash=\"").append(asked).append("\", start_line=").append(end + 1)
                    .append(", num_lines=").append(count).append(") to continue reading]");
        }
        return new Answer(text.toString(), false);
    }
}
