package dev.engram.tools;

/** The paragraph a product appends to its instructions when it offers the memory tools. */
public final class Usage {

    private Usage() {
    }

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
