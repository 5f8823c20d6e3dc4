package dev.engram.console.memories;

import dev.engram.console.MarkdownHtml;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.kernel.Invalid;
import java.util.List;

/**
 * A memory as the console shows it: the memory, its content as sanitised HTML ({@link MarkdownHtml}), the start of
 * its content as text for a list, and its evidence, each marked when it names a memory (an id) rather than an outside
 * source.
 */
public record MemoryView(Memory memory, String html, String excerpt, List<Evidence> evidence) {

    /** The characters of content a list shows. */
    static final int EXCERPT = 180;

    /** One piece of evidence; {@code memory} when it is an id a memory may have. */
    public record Evidence(String value, boolean memory) {
    }

    public MemoryView {
        evidence = List.copyOf(evidence);
    }

    /** The view of {@code m}. */
    public static MemoryView of(Memory m) {
        List<Evidence> evidence = m.evidence().stream().map(e -> new Evidence(e, isId(e))).toList();
        return new MemoryView(m, MarkdownHtml.of(m.content()), excerpt(m.content()), evidence);
    }

    /** A list's view of {@code m}: no HTML made. */
    public static MemoryView listed(Memory m) {
        return new MemoryView(m, "", excerpt(m.content()), List.of());
    }

    /** The start of {@code content} on one line, cut at {@link #EXCERPT} characters. */
    static String excerpt(String content) {
        String line = content.strip().replaceAll("\\s+", " ");
        if (line.length() <= EXCERPT) {
            return line;
        }
        int cut = Character.isHighSurrogate(line.charAt(EXCERPT - 1)) ? EXCERPT - 1 : EXCERPT;
        return line.substring(0, cut) + "…";
    }

    private static boolean isId(String value) {
        try {
            MemoryRules.checkId(value, "evidence");
            return true;
        } catch (Invalid notAnId) {
            return false;
        }
    }
}
