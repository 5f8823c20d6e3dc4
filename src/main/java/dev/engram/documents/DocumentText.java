package dev.engram.documents;

import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;

/**
 * The rules of a document's content: any text ({@code ""} included) of at most {@value #MAX_BYTES} UTF-8 bytes that
 * PostgreSQL can keep (no NUL, no unpaired surrogate).
 */
public final class DocumentText {

    /** The most UTF-8 bytes a document's content may have: the Memory Stores API's 100 KiB. */
    public static final int MAX_BYTES = 102_400;

    private DocumentText() {
    }

    /** {@code content} if a document may hold it at {@code path}; else {@link Invalid} or {@link DocumentRefused}. */
    public static String check(String path, String content, String field) {
        if (content == null) {
            throw new Invalid("content-missing", field, "The content is missing; send the file's text, or \"\" for "
                    + "an empty file.");
        }
        int at = Utf8.firstUnstorable(content);
        if (at >= 0) {
            throw new Invalid("content-characters", field, "The content holds a NUL or an unpaired surrogate at "
                    + "index " + at + "; documents hold text.");
        }
        int bytes = Utf8.length(content);
        if (bytes > MAX_BYTES) {
            throw DocumentRefused.tooLarge(path, bytes, MAX_BYTES);
        }
        return content;
    }
}
