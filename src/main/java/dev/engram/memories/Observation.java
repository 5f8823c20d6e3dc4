package dev.engram.memories;

import java.util.List;

/**
 * One consolidation a reflector proposes: a statement drawn from several memories ({@code evidence}, their ids),
 * how sure the reflector is of it ({@code confidence}, 0 to 1; it becomes the observation's importance), whether the
 * evidence disagrees ({@code conflicting}), and the id of an existing observation it replaces ({@code updates}, ""
 * for none).
 */
public record Observation(String content, double confidence, List<String> evidence, boolean conflicting,
        String updates) {

    public Observation {
        content = content == null ? "" : content;
        evidence = Memory.set(evidence);
        updates = updates == null ? "" : updates.strip();
    }
}
