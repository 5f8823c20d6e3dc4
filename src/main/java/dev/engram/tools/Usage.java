package dev.engram.tools;

/** The text a product appends to its instructions when it offers the memory tools: a paragraph per set offered. */
public final class Usage {

    private Usage() {
    }

    /**
     * How to use the tools offered: the four over the memory block when {@code entries}, memory_remember and
     * memory_recall when {@code recall} (a bank is named), tool_result_read when {@code toolResults} (a context is
     * named); one paragraph for each, in that order, separated by a blank line. Nothing offered is "".
     */
    public static String text(boolean entries, boolean recall, boolean toolResults) {
        java.util.List<String> paragraphs = new java.util.ArrayList<>();
        if (entries) {
            paragraphs.add(text());
        }
        if (recall) {
            paragraphs.add(RECALL);
        }
        if (toolResults) {
            paragraphs.add(TOOL_RESULTS);
        }
        return String.join("\n\n", paragraphs);
    }

    /** How to use memory_remember and memory_recall. */
    static final String RECALL = "Your memory bank holds typed memories (facts, preferences, skills and the like) "
            + "kept between conversations and found by relevance; they are not shown to you until you recall them. "
            + "Before answering from memory, call memory_recall with a question or a few words; it returns the best "
            + "matches only, each with its type, importance and score, so ask narrowly and again with other words "
            + "if nothing fits. To keep a new fact for later, call memory_remember with the fact itself, one per "
            + "call, written to make sense on its own, with its type and, for what matters most, a higher "
            + "importance.";

    /** How to use tool_result_read. */
    static final String TOOL_RESULTS = "A tool result too long for the conversation is cut, and its notice gives a "
            + "hash: call tool_result_read with that hash and the lines you need (start_line and num_lines, or one "
            + "line) to read more of it, rather than running the tool again.";

    /** How to use the four tools over the memory block. */
    public static String text() {
        return "The Memory block above is what you remember between conversations; it is rendered from your memory "
                + "store before each turn and is not part of the conversation. To remember something new, call "
                + "memory_save with a kebab-case name, the content, and a one-line description in meta. To change an "
                + "entry, call memory_patch with text that occurs once in it and its replacement; prefer it to "
                + "memory_save, which rewrites the whole entry. To drop an entry, call memory_forget. Entries the "
                + "block leaves out, and any entry you want to read whole, are found with memory_search; its results "
                + "stay in the conversation, so search narrowly. Each entry's heading shows its size and the limit, "
                + "and a write over the limit is refused with both numbers, so split or trim before saving. Inside "
                + "an entry, use headings of level four or none.";
    }
}
