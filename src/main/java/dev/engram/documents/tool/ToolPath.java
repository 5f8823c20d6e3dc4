package dev.engram.documents.tool;

import dev.engram.documents.DocumentPath;
import java.util.Locale;

/**
 * A path the memory tool was sent, checked and mapped to the store's documents: {@code /memories} is the document
 * root {@code /}. A path outside {@code /memories}, with a {@code ..} or {@code .} segment, a backslash, a NUL or a
 * percent-encoded dot or slash is refused ({@link Refused}) before anything is read.
 */
record ToolPath(String sent, String document) {

    /** A path the tool refuses, with the text to answer. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    static ToolPath of(String sent) {
        String lower = sent.toLowerCase(Locale.ROOT);
        if (sent.indexOf('\0') >= 0 || sent.indexOf('\\') >= 0 || lower.contains("%2e") || lower.contains("%2f")
                || lower.contains("%5c") || lower.contains("%00")) {
            throw new Refused(MemoryToolTexts.escapes(sent));
        }
        String root = MemoryTool.ROOT;
        if (!(sent.equals(root) || sent.startsWith(root + "/"))) {
            throw new Refused(MemoryToolTexts.outside(sent));
        }
        String rest = sent.substring(root.length());
        while (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty()) {
            return new ToolPath(sent, "/");
        }
        for (String segment : rest.substring(1).split("/", -1)) {
            if (segment.equals("..") || segment.equals(".")) {
                throw new Refused(MemoryToolTexts.escapes(sent));
            }
        }
        return new ToolPath(sent, DocumentPath.check(rest, "path"));
    }

    boolean isRoot() {
        return document.equals("/");
    }

    /** This path, which must name a file: the root is a directory. */
    ToolPath file() {
        if (isRoot()) {
            throw new Refused(MemoryToolTexts.isDirectory(sent));
        }
        return this;
    }
}
