package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The tokens a recall query is matched by: words of letters and digits, lower-cased; each run of CJK characters,
 * then every window of two of its code points; de-duplicated, first occurrence kept. Anything else (spaces,
 * punctuation, {@code _}, apostrophes, emoji) ends a word. A query of none gives no tokens.
 */
public final class QueryTokens {

    private QueryTokens() {
    }

    /** The query's tokens in order of first occurrence; empty when it has none. */
    public static List<String> of(String query) {
        Set<String> tokens = new LinkedHashSet<>();
        String q = query == null ? "" : query.strip();
        StringBuilder word = new StringBuilder();
        List<Integer> cjk = new ArrayList<>();
        for (int i = 0; i < q.length(); ) {
            int c = q.codePointAt(i);
            i += Character.charCount(c);
            if (isCjk(c)) {
                flushWord(word, tokens);
                cjk.add(c);
            } else if (Character.isLetter(c) || Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
                flushCjk(cjk, tokens);
                word.appendCodePoint(c);
            } else {
                flushWord(word, tokens);
                flushCjk(cjk, tokens);
            }
        }
        flushWord(word, tokens);
        flushCjk(cjk, tokens);
        return List.copyOf(tokens);
    }


    private static void flushWord(StringBuilder word, Set<String> tokens) {
        if (word.length() > 0) {
            tokens.add(word.toString().toLowerCase(Locale.ROOT));
            word.setLength(0);
        }
    }

    /** A run of CJK characters: the run and every window of two of its code points (then the run is emptied). */
    public static void flushCjk(List<Integer> run, java.util.Collection<String> tokens) {
        if (run.isEmpty()) {
            return;
        }
        tokens.add(text(run, 0, run.size()));
        for (int i = 0; i + 2 <= run.size(); i++) {
            tokens.add(text(run, i, i + 2));
        }
        run.clear();
    }

    private static String text(List<Integer> codePoints, int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            b.appendCodePoint(codePoints.get(i));
        }
        return b.toString();
    }

    /** CJK unified ideographs (and extensions A and B), kana and Hangul syllables. */
    public static boolean isCjk(int c) {
        return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
                || (c >= 0x3040 && c <= 0x30FF) || (c >= 0xAC00 && c <= 0xD7AF);
    }
}
