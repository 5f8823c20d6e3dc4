package dev.engram.memories.rank;

import dev.engram.kernel.Invalid;
import java.util.Arrays;
import java.util.Locale;

/**
 * How a recall search orders memories. {@link #SEED} is the seed's ranking, kept exactly for conformance: the count of
 * query tokens a memory holds × importance × age decay. {@link #HYBRID}, the default, fuses {@link #LEXICAL} (BM25 over
 * stemmed terms) and {@link #SEMANTIC} (cosine similarity of embeddings), then weighs importance and age lightly.
 */
public enum Ranking {
    SEED, HYBRID, LEXICAL, SEMANTIC;

    /** The name a request or a bank setting uses. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The ranking named {@code name}; {@link Invalid} ({@code ranking}) naming the choices otherwise. */
    public static Ranking parse(String name, String field) {
        for (Ranking r : values()) {
            if (r.wire().equals(name)) {
                return r;
            }
        }
        throw new Invalid("ranking", field, "ranking must be one of " + String.join(", ",
                Arrays.stream(values()).map(Ranking::wire).toList()) + ".");
    }
}
