package dev.engram.memories;

import dev.engram.kernel.Invalid;
import dev.engram.entries.Match;
import dev.engram.memories.rank.Ranking;

/**
 * The bounds of a recall query, the same on every path (REST search, the tools over REST and MCP): at most
 * {@link Match#MAX_QUERY_CHARS} characters, no NUL and no unpaired surrogate (a tool's arguments do not pass the REST
 * body's text rule, so the check is here). The seed's ranking keeps its limit of
 * {@link Match#MAX_QUERY_WORDS} words, one condition per word; the others bound their work themselves (a long query
 * keeps its most informative terms).
 */
public final class RecallQuery {

    private RecallQuery() {
    }

    /** Refuses {@code query} with {@link Invalid} when it is out of bounds for {@code ranking}. */
    public static void check(String query, Ranking ranking) {
        String q = query == null ? "" : query;
        if (q.indexOf('\0') >= 0) {
            throw new Invalid("query-nul", "query", "The query holds a NUL character (\\u0000), which no memory can "
                    + "hold; remove it.");
        }
        int bad = dev.engram.kernel.Utf8.firstUnstorable(q);
        if (bad >= 0) {
            throw new Invalid("query-encoding", "query", "The query is not valid UTF-8: it holds an unpaired "
                    + "surrogate at character " + bad + ", which no memory can hold; send well-formed text.");
        }
        if (ranking == Ranking.SEED) {
            Match.checkQuery(q, "The seed ranking counts the words a memory holds; the hybrid ranking (the "
                    + "default) takes longer queries.");
        } else if (q.length() > Match.MAX_QUERY_CHARS) {
            throw new Invalid("query-length", "query", "The query has " + q.length() + " characters; use at most "
                    + Match.MAX_QUERY_CHARS + ".");
        }
    }
}
