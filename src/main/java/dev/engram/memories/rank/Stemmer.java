package dev.engram.memories.rank;

/**
 * A light English stemmer, so that inflections of one word meet: plurals ({@code cities → citi}, {@code boxes → box}),
 * {@code -ing} and {@code -ed} with a doubled consonant undone ({@code running → run}, {@code planned → plan}), and a
 * final {@code e} dropped so that {@code bake}, {@code baked} and {@code baking} all give {@code bak}. Words of three
 * letters or fewer, and words with a digit, are kept as they are. Not Porter's algorithm: it leaves derivations
 * ({@code -ness}, {@code -ation}) alone, which merge less often by mistake.
 */
final class Stemmer {

    private Stemmer() {
    }

    static String stem(String word) {
        int n = word.length();
        if (n <= 3 || !ascii(word)) {
            return word;
        }
        String w = word;
        if (w.endsWith("ies") && n > 4) {
            w = w.substring(0, n - 3) + "i";
        } else if (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes")) {
            w = w.substring(0, n - 2);
        } else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            w = w.substring(0, n - 1);
        }
        if (w.endsWith("ing") && vowelIn(w, w.length() - 3) && w.length() - 3 >= 3) {
            w = undouble(w.substring(0, w.length() - 3));
        } else if (w.endsWith("ed") && vowelIn(w, w.length() - 2) && w.length() - 2 >= 3) {
            w = undouble(w.substring(0, w.length() - 2));
        }
        if (w.endsWith("y") && w.length() > 3 && !vowel(w.charAt(w.length() - 2))) {
            w = w.substring(0, w.length() - 1) + "i";
        }
        if (w.endsWith("e") && w.length() > 3) {
            w = w.substring(0, w.length() - 1);
        }
        return w;
    }

    private static String undouble(String s) {
        int n = s.length();
        if (n >= 3 && s.charAt(n - 1) == s.charAt(n - 2) && !vowel(s.charAt(n - 1)) && "lsz".indexOf(s.charAt(n - 1)) < 0) {
            return s.substring(0, n - 1);
        }
        return s;
    }

    private static boolean vowelIn(String s, int end) {
        for (int i = 0; i < end; i++) {
            if (vowel(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean vowel(char c) {
        return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
    }

    private static boolean ascii(String w) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c < 'a' || c > 'z') {
                return false;
            }
        }
        return true;
    }
}
