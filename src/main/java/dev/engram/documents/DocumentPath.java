package dev.engram.documents;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;
import java.text.Normalizer;

/**
 * The rules of a document's path, the Memory Stores API's: it starts with {@code /}, holds at most
 * {@value #MAX_BYTES} UTF-8 bytes in Unicode NFC, and its segments are never empty, {@code .} or {@code ..}, and hold
 * no control, format, line or paragraph separator character. Paths compare byte by byte; a directory is every path
 * that starts with its path and a {@code /}. Every store checks a path with {@link #check} before anything is written.
 */
public final class DocumentPath {

    /** The most UTF-8 bytes a path may have. */
    public static final int MAX_BYTES = 1024;

    private DocumentPath() {
    }

    /**
     * {@code path} if it is a document's path, else {@link Invalid} (field {@code field}) saying what to change.
     */
    public static String check(String path, String field) {
        if (path == null || path.isEmpty()) {
            throw invalid(field, "path-missing", "A path is required, such as /preferences/food.md.");
        }
        if (!path.startsWith("/")) {
            throw invalid(field, "path-relative", "Path " + shown(path) + " does not start with /; paths are "
                    + "absolute, such as /" + shown(path) + ".");
        }
        int bytes = Utf8.length(path);
        if (bytes > MAX_BYTES) {
            throw invalid(field, "path-length", "The path is " + bytes + " bytes, over the limit of " + MAX_BYTES
                    + " bytes in UTF-8; shorten it by at least " + (bytes - MAX_BYTES) + " bytes.");
        }
        if (Utf8.firstUnstorable(path) >= 0) {
            throw invalid(field, "path-characters", "The path holds a NUL or an unpaired surrogate; use text.");
        }
        for (int i = 0; i < path.length(); ) {
            int c = path.codePointAt(i);
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                throw invalid(field, "path-characters", String.format("The path holds the control or format "
                        + "character U+%04X at index %d; remove it.", c, i));
            }
            i += Character.charCount(c);
        }
        if (!Normalizer.isNormalized(path, Normalizer.Form.NFC)) {
            throw invalid(field, "path-normal-form", "The path is not in Unicode normal form NFC; send it "
                    + "normalized (NFC), as " + shown(Normalizer.normalize(path, Normalizer.Form.NFC)) + ".");
        }
        String[] segments = path.substring(1).split("/", -1);
        for (String segment : segments) {
            if (segment.isEmpty()) {
                throw invalid(field, "path-segment", "Path " + shown(path) + " has an empty segment (a // or a "
                        + "trailing /); name each directory and the file.");
            }
            if (segment.equals(".") || segment.equals("..")) {
                throw invalid(field, "path-segment", "Path " + shown(path) + " has a segment " + segment
                        + "; paths are absolute and name no . or .. segment.");
            }
        }
        return path;
    }

    /** Whether {@code path} lies under directory {@code directory} ({@code /} holds every path). */
    public static boolean under(String path, String directory) {
        return directory.equals("/") || path.startsWith(directory.endsWith("/") ? directory : directory + "/");
    }

    /** The path's last segment: its file name. */
    public static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String shown(String path) {
        return path.length() > 80 ? path.substring(0, 80) + "..." : path;
    }

    private static Invalid invalid(String field, String rule, String message) {
        return new Invalid(rule, field, message);
    }
}
