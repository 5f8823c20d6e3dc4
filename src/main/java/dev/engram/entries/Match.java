package dev.engram.entries;

import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a search matches: every whitespace-separated word of the query appears, ignoring case, in the entry's name,
 * one of its meta values or its content. An empty query matches every entry.
 *
 * <p>Both sides are folded the same way, so a store may keep {@link #text} of each entry and test
 * {@link #words} against it with a substring search: no word holds white space, so none can match across the
 * line breaks that separate the fields.
 */
public final class Match {

    private Match() {
    }

    /** Whether {@code e} matches {@code query}. */
    public static boolean matches(Entry e, String query) {
        String text = text(e);
        for (String word : words(query)) {
            if (!text.contains(word)) {
                return false;
            }
        }
        return true;
    }

    /** The entry's searchable text: name, meta values and content, folded, one per line. */
    public static String text(Entry e) {
        StringBuilder b = new StringBuilder(e.content().length() + 64);
        b.append(e.name()).append('\n');
        for (String value : e.meta().values()) {
            b.append(value).append('\n');
        }
        b.append(e.content());
        return fold(b.toString());
    }

    /** The most words a search query may have. */
    public static final int MAX_QUERY_WORDS = 16;
    /** The most characters a search query may have. */
    public static final int MAX_QUERY_CHARS = 1000;

    /**
     * Refuses a query over {@link #MAX_QUERY_CHARS} characters or {@link #MAX_QUERY_WORDS} words with
     * {@link Invalid}: each word is one more condition for the database to check on every candidate.
     */
    public static void checkQuery(String query) {
        checkQuery(query, "Every word must appear in an entry, so fewer, distinctive words work best.");
    }

    /** As {@link #checkQuery(String)}, with {@code advice} after the count of words when there are too many. */
    public static void checkQuery(String query, String advice) {
        if (query.length() > MAX_QUERY_CHARS) {
            throw new Invalid("query-length", "query", "The query has " + query.length() + " characters; use at "
                    + "most " + MAX_QUERY_CHARS + ": a few distinctive words find more than a pasted paragraph.");
        }
        int words = words(query).size();
        if (words > MAX_QUERY_WORDS) {
            throw new Invalid("query-words", "query", "The query has " + words + " words; use at most "
                    + MAX_QUERY_WORDS + ". " + advice);
        }
    }

    /** The query's words, folded; {@link Invalid} when the query holds NUL, which no entry can hold. */
    public static List<String> words(String query) {
        if (query.indexOf('\0') >= 0) {
            throw new Invalid("query-nul", "q", "The query holds a NUL character (\\u0000), which no entry can hold; "
                    + "remove it.");
        }
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= query.length(); i++) {
            boolean space = i == query.length() || EntryRules.isSpace(query.charAt(i));
            if (space && start >= 0) {
                words.add(fold(query.substring(start, i)));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        return words;
    }

    private static String fold(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
