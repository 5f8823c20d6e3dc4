package dev.engram.recall.rank;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The terms lexical ranking counts. Words split as {@link dev.engram.recall.QueryTokens} splits them (letters and
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
        if (run.isEmpty()) {
            return;
        }
        out.add(text(run, 0, run.size()));
        for (int i = 0; i + 2 <= run.size(); i++) {
            out.add(text(run, i, i + 2));
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

    /** CJK unified ideographs (and extensions A and B), kana and Hangul syllables, as the seed's tokeniser has. */
    static boolean isCjk(int c) {
        return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
                || (c >= 0x3040 && c <= 0x30FF) || (c >= 0xAC00 && c <= 0xD7AF);
    }
}
