package dev.engram.console.memories;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.memories.Reflection;
import java.util.ArrayList;
import java.util.List;

/**
 * What a reflection did, as the bank's page shows it after the reflect form: the counts and the memories it created
 * and superseded, read back from the parameters the form's answer sent the browser to. The numbers are only shown;
 * each id is read from the store (a memory the store does not hold is left out), and nothing else of the parameters
 * reaches the page: its words are the page's own.
 *
 * @param tooFew whether it asked nothing, having fewer than two new facts
 */
public record ReflectionShown(String reflector, int created, int updated, int reviewed, int waiting,
        List<MemoryView> createdMemories, List<MemoryView> supersededMemories, boolean tooFew) {

    /** The fewest new facts a reflection asks its reflector about; with fewer it notes {@link Reflection#TOO_FEW}. */
    static final int FEWEST_FACTS = 2;

    /** The reflectors a result may name. */
    static final List<String> REFLECTORS = List.of("deterministic", "llm");

    public ReflectionShown {
        createdMemories = List.copyOf(createdMemories);
        supersededMemories = List.copyOf(supersededMemories);
    }

    /** The result the parameters name, or null when they name none (no reflector, or one that does not exist). */
    static ReflectionShown read(Recall recall, String reflector, String created, String updated, String reviewed,
            String waiting, List<String> newIds, List<String> superseded, int most) {
        if (reflector == null || !REFLECTORS.contains(reflector)) {
            return null;
        }
        int facts = count(reviewed);
        return new ReflectionShown(reflector, count(created), count(updated), facts, count(waiting),
                memories(recall, newIds, most), memories(recall, superseded, most), facts < FEWEST_FACTS);
    }

    /** What the reflection noted when it asked nothing ({@link Reflection#TOO_FEW}), else "". */
    public String note() {
        return tooFew ? Reflection.TOO_FEW : "";
    }

    private static List<MemoryView> memories(Recall recall, List<String> ids, int most) {
        List<MemoryView> found = new ArrayList<>();
        for (String id : ids == null ? List.<String>of() : ids.stream().limit(most).toList()) {
            try {
                MemoryRules.checkId(id, "id");
                found.add(MemoryView.listed(recall.get(id)));
            } catch (Invalid | NotFound notShown) {
                // an id that names no memory of the store is not shown
            }
        }
        return found;
    }

    private static int count(String value) {
        try {
            return value == null ? 0 : Math.max(0, Integer.parseInt(value));
        } catch (NumberFormatException notANumber) {
            return 0;
        }
    }
}
