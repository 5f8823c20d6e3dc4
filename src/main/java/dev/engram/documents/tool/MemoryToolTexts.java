package dev.engram.documents.tool;

import java.util.List;
import java.util.Locale;

/**
 * The texts the memory tool answers, as Anthropic's memory tool documentation gives them for each command and error
 * (docs/claude-memory.md quotes the table); where it gives none, the official SDKs' reference backends' texts. Paths
 * are shown as the model sent them.
 */
final class MemoryToolTexts {

    /** The most characters a view answers; a longer one is cut and says how to read the rest. */
    static final int MAX_VIEW_CHARS = 16_000;
    /** The most lines a file may have to be viewed, as the documentation bounds it. */
    static final int MAX_LINES = 999_999;
    /** The lines a str_replace's answer shows around the change, on each side. */
    static final int SNIPPET_LINES = 4;

    private MemoryToolTexts() {
    }

    static String directoryHeader(String path) {
        return "Here're the files and directories up to 2 levels deep in " + path
                + ", excluding hidden items and node_modules:";
    }

    static String listed(long bytes, String path) {
        return humanSize(bytes) + "\t" + path;
    }

    static String fileHeader(String path) {
        return "Here's the content of " + path + " with line numbers:";
    }

    /** One numbered line: the number right-aligned in 6 characters, a tab, the line. */
    static String numbered(long number, String line) {
        return String.format(Locale.ROOT, "%6d\t%s", number, line);
    }

    static String truncated(String path, long shownThrough, long lines) {
        return "\n[The view of " + path + " is cut at " + String.format(Locale.ROOT, "%,d", MAX_VIEW_CHARS)
                + " characters, after line " + shownThrough + " of " + lines + ". View the rest with view_range, "
                + "such as [" + (shownThrough + 1) + ", " + Math.min(lines, shownThrough + 200) + "].]";
    }

    static String tooManyLines(String path) {
        return "File " + path + " exceeds maximum line limit of 999,999 lines.";
    }

    static String notFound(String path) {
        return "The path " + path + " does not exist. Please provide a valid path.";
    }

    static String created(String path) {
        return "File created successfully at: " + path;
    }

    static String alreadyExists(String path) {
        return "Error: File " + path + " already exists";
    }

    static String edited() {
        return "The memory file has been edited.";
    }

    static String snippetHeader() {
        return " Here is the snippet showing the change (with line numbers):";
    }

    static String editNotFound(String path) {
        return "Error: The path " + path + " does not exist. Please provide a valid path.";
    }

    static String notVerbatim(String oldStr, String path) {
        return "No replacement was performed, old_str `" + oldStr + "` did not appear verbatim in " + path + ".";
    }

    static String notUnique(String oldStr, List<Integer> lines) {
        return "No replacement was performed. Multiple occurrences of old_str `" + oldStr + "` in lines: "
                + String.join(", ", lines.stream().map(String::valueOf).toList()) + ". Please ensure it is unique";
    }

    static String inserted(String path) {
        return "The file " + path + " has been edited.";
    }

    static String insertNotFound(String path) {
        return "Error: The path " + path + " does not exist";
    }

    static String insertLine(long line, int lines) {
        return "Error: Invalid `insert_line` parameter: " + line + ". It should be within the range of lines of "
                + "the file: [0, " + lines + "]";
    }

    static String deleted(String path) {
        return "Successfully deleted " + path;
    }

    static String deleteNotFound(String path) {
        return "Error: The path " + path + " does not exist";
    }

    static String deleteRoot() {
        return "Error: Cannot delete the /memories directory itself";
    }

    static String renamed(String oldPath, String newPath) {
        return "Successfully renamed " + oldPath + " to " + newPath;
    }

    static String renameNotFound(String oldPath) {
        return "Error: The path " + oldPath + " does not exist";
    }

    static String destinationExists(String newPath) {
        return "Error: The destination " + newPath + " already exists";
    }

    static String renameRoot() {
        return "Error: Cannot rename the /memories directory itself";
    }

    static String renameIntoItself(String oldPath, String newPath) {
        return "Error: Cannot move " + oldPath + " into itself (" + newPath + ")";
    }

    static String outside(String path) {
        return "Error: Path must start with /memories, not " + path;
    }

    static String escapes(String path) {
        return "Error: Path " + path + " would escape /memories directory";
    }

    static String rangeOnDirectory() {
        return "Error: The `view_range` parameter is not allowed when `path` points to a directory.";
    }

    static String badRange(List<Long> range, int lines) {
        return "Error: Invalid `view_range`: [" + range.get(0) + ", " + range.get(1) + "]. It should be [start, "
                + "end] with 1 <= start <= " + Math.max(lines, 1) + " and start <= end <= " + lines
                + ", or end -1 for the end of the file.";
    }

    static String isDirectory(String path) {
        return "Error: The path " + path + " is a directory; only view, delete and rename work on directories.";
    }

    /**
     * Sizes as {@code du -h} shows them: bytes below 1 KiB as a number, else in K, M or G (powers of 1024), rounded
     * up, with one decimal below 10.
     */
    static String humanSize(long bytes) {
        if (bytes < 1024) {
            return Long.toString(bytes);
        }
        String units = "KMGT";
        double v = bytes;
        int u = -1;
        do {
            v /= 1024;
            u++;
        } while (v >= 1024 && u < units.length() - 1);
        if (v < 10) {
            double up = Math.ceil(v * 10) / 10;
            return up >= 10 ? "10" + units.charAt(u) : String.format(Locale.ROOT, "%.1f%c", up, units.charAt(u));
        }
        return (long) Math.ceil(v) + String.valueOf(units.charAt(u));
    }
}
