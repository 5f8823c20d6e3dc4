package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The terms lexical ranking counts. Words split as {@link dev.engram.memories.rank.QueryTokens} splits them (letters and
 * digits, lower-cased; each run of CJK characters kept with every window of two of its code points), then English
 * stop words left out and the rest {@link Stemmer stemmed}. A document keeps every occurrence; a query keeps each
 * term once, and keeps its stop words when it has nothing else.
 */
public final class Terms {

    private Terms() {
    }

    /** Every term of {@code text}, in order, repeats kept. */
    public static List<String> ofDocument(String text) {
        List<String> terms = new ArrayList<>();
        split(text, terms, false);
        return terms;
    }

    /** The distinct terms of a query, in order of first occurrence. */
    public static List<String> ofQuery(String text) {
        List<String> terms = new ArrayList<>();
        split(text, terms, false);
        if (terms.isEmpty()) {
            split(text, terms, true);
        }
        return List.copyOf(new LinkedHashSet<>(terms));
    }

    private static void split(String text, List<String> out, boolean keepStopWords) {
        String t = text == null ? "" : text;
        StringBuilder word = new StringBuilder();
        List<Integer> cjk = new ArrayList<>();
        for (int i = 0; i < t.length(); ) {
            int c = t.codePointAt(i);
            i += Character.charCount(c);
            if (isCjk(c)) {
                word(word, out, keepStopWords);
                cjk.add(c);
            } else if (Character.isLetter(c) || Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
                cjk(cjk, out);
                word.appendCodePoint(c);
            } else {
                word(word, out, keepStopWords);
                cjk(cjk, out);
            }
        }
        word(word, out, keepStopWords);
        cjk(cjk, out);
    }

    private static void word(StringBuilder word, List<String> out, boolean keepStopWords) {
        if (word.length() == 0) {
            return;
        }
        String w = word.toString().toLowerCase(Locale.ROOT);
        word.setLength(0);
        if (keepStopWords || !StopWords.contains(w)) {
            out.add(Stemmer.stem(w));
        }
    }

    private static void cjk(List<Integer> run, List<String> out) {
        QueryTokens.flushCjk(run, out);
    }

    static boolean isCjk(int c) {
        return QueryTokens.isCjk(c);
    }
}
