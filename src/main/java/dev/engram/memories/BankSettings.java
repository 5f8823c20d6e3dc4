package dev.engram.memories;

import dev.engram.memories.rank.Ranking;
import java.util.List;

/**
 * How a bank's reflection should think: its mission, its directives, and three dispositions (skepticism, literalism,
 * empathy) that a reflector may weigh. Engram keeps them; it does not range-check the dispositions beyond 0 to 10.
 * {@code ranking} is how a search of this bank alone ranks when it names none (null: {@link Ranking#HYBRID}).
 */
public record BankSettings(String mission, List<String> directives, int skepticism, int literalism, int empathy,
        Ranking ranking) {

    /** The most a disposition may be. */
    public static final int MAX_DISPOSITION = 10;

    public BankSettings {
        mission = mission == null ? "" : mission;
        directives = directives == null ? List.of() : List.copyOf(directives);
    }

    /** Settings that leave the ranking to the default. */
    public BankSettings(String mission, List<String> directives, int skepticism, int literalism, int empathy) {
        this(mission, directives, skepticism, literalism, empathy, null);
    }
}
