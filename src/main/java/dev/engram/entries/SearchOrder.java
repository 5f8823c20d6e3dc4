package dev.engram.entries;

import dev.engram.kernel.Invalid;
import java.util.Arrays;
import java.util.Locale;

/**
 * The order of a search's hits. {@link #NAME}, the default, is the seed's reference stores' order: by scope (in the
 * order given, else byte order), then name. {@link #RELEVANCE} is the seed's sqlite store's: best first by BM25 of
 * the query's terms in each hit's searchable text ({@link Match#text}), with the terms and formula memories are
 * ranked by ({@code dev.engram.memories.rank.Bm25}), over the hits as the corpus; equal scores in name order. Which
 * entries match does not depend on the order.
 */
public enum SearchOrder {
    NAME, RELEVANCE;

    /**
     * The most hits a search ranks by relevance: all of them are scored before the first page is cut. The default
     * quota of entries a store holds ({@code engram.limits.entries-per-store}) is the same, so only a store allowed
     * more can match more; such a search is refused ({@link #tooBroad}).
     */
    public static final int MAX_RANKED = 10_000;

    /** The name a request or a setting uses. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The order named {@code name}; {@link Invalid} (rule {@code order}, on {@code field}) naming the choices. */
    public static SearchOrder parse(String name, String field) {
        for (SearchOrder o : values()) {
            if (o.wire().equals(name)) {
                return o;
            }
        }
        throw new Invalid("order", field, field + " must be one of " + String.join(", ",
                Arrays.stream(values()).map(SearchOrder::wire).toList()) + ".");
    }

    /** The refusal of a search by relevance that matches more than {@link #MAX_RANKED} entries. */
    public static Invalid tooBroad() {
        return new Invalid("search-too-broad", "q", "The query matches more than " + MAX_RANKED + " entries, more "
                + "than a search ranks by relevance; add a word or name scopes, or order by name.");
    }
}
