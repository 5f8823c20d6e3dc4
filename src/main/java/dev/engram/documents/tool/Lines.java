package dev.engram.documents.tool;

import java.util.ArrayList;
import java.util.List;

/**
 * A text as lines, the way an editor numbers them: split at line feeds, a final line feed ending the last line rather
 * than starting an empty one ({@code endsWithNewline}), an empty text having no line.
 */
record Lines(List<String> lines, boolean endsWithNewline) {

    static Lines of(String text) {
        if (text.isEmpty()) {
            return new Lines(List.of(), false);
        }
        boolean newline = text.endsWith("\n");
        String body = newline ? text.substring(0, text.length() - 1) : text;
        return new Lines(List.of(body.split("\n", -1)), newline);
    }

    int count() {
        return lines.size();
    }

    /** This text with {@code text}'s lines inserted after line {@code after} (0: before the first). */
    String insert(int after, String text) {
        List<String> out = new ArrayList<>(lines.subList(0, after));
        out.addAll(of(text).lines().isEmpty() ? List.of("") : of(text).lines());
        out.addAll(lines.subList(after, lines.size()));
        return String.join("\n", out) + (endsWithNewline || lines.isEmpty() && text.endsWith("\n") ? "\n" : "");
    }

    /** The 1-based number of the line that holds character {@code index} of {@code text}. */
    static int lineAt(String text, int index) {
        int line = 1;
        for (int i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
            line++;
        }
        return line;
    }
}
