package dev.engram.memories;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A bank's context slots (SOUL, AGENTS, TOOLS, MEMORY, HEARTBEAT, or any other name of 1 to 64 letters, digits,
 * {@code _} or {@code -}): texts kept per bank and joined, in an order, into the context string an agent puts in its
 * prompt.
 */
public final class ContextSlots {

    /** The slots, in the order the context string takes when none is given. */
    public static final List<String> DEFAULT_ORDER = List.of("SOUL", "AGENTS", "TOOLS", "MEMORY", "HEARTBEAT");

    private ContextSlots() {
    }

    /**
     * The context string: for each slot of {@code order} (the default order when null or empty) that holds text once
     * trimmed, {@code # SLOT}, a blank line and the text; sections joined by a blank line; no trailing newline; "" when
     * no slot holds text.
     */
    public static String build(List<String> order, Map<String, String> slots) {
        List<String> sections = new ArrayList<>();
        for (String slot : order == null || order.isEmpty() ? DEFAULT_ORDER : order) {
            String text = slots.get(slot);
            if (text != null && !text.strip().isEmpty()) {
                sections.add("# " + slot + "\n\n" + text.strip());
            }
        }
        return String.join("\n\n", sections);
    }

    /** {@code current} with {@code more} appended on a new line (none added when it ends with one, or is empty). */
    public static String append(String current, String more) {
        if (current == null || current.isEmpty()) {
            return more;
        }
        return current.endsWith("\n") ? current + more : current + "\n" + more;
    }
}
