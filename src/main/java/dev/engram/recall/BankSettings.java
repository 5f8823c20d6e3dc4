package dev.engram.recall;

import java.util.List;

/**
 * How a bank's reflection should think: its mission, its directives, and three dispositions (skepticism, literalism,
 * empathy) that a reflector may weigh. Engram keeps them; it does not range-check the dispositions beyond 0 to 10.
 */
public record BankSettings(String mission, List<String> directives, int skepticism, int literalism, int empathy) {

    /** The most a disposition may be. */
    public static final int MAX_DISPOSITION = 10;

    public BankSettings {
        mission = mission == null ? "" : mission;
        directives = directives == null ? List.of() : List.copyOf(directives);
    }
}
