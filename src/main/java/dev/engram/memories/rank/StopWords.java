package dev.engram.memories.rank;

import java.util.Set;

/**
 * English words too common to tell memories apart, left out of lexical ranking: articles, pronouns, auxiliaries,
 * prepositions, conjunctions and question words. A query of nothing else keeps them (see {@link Terms#ofQuery}).
 */
final class StopWords {

    private static final Set<String> WORDS = Set.of(
            "a", "an", "the", "and", "or", "but", "nor", "so", "yet", "if", "then", "than", "of", "in", "on", "at",
            "to", "for", "from", "by", "with", "about", "as", "into", "onto", "over", "under", "up", "down", "out",
            "off", "i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself", "he", "him", "his",
            "himself", "she", "her", "hers", "herself", "it", "its", "itself", "we", "us", "our", "ours", "they",
            "them", "their", "theirs", "this", "that", "these", "those", "is", "am", "are", "was", "were", "be",
            "been", "being", "do", "does", "did", "doing", "done", "have", "has", "had", "having", "will", "would",
            "shall", "should", "can", "could", "may", "might", "must", "what", "which", "who", "whom", "whose",
            "when", "where", "why", "how", "there", "here", "not", "no", "s", "t", "d", "ll", "m", "re", "ve",
            "just", "very", "too", "also", "any", "some", "all", "each", "such", "own", "same", "other", "only",
            "both", "more", "most", "again", "once", "while", "during", "before", "after", "between", "through",
            "because", "until", "against", "further", "oh", "yeah", "yes", "ok", "okay", "hey", "hi", "really",
            "like", "get", "got", "one");

    private StopWords() {
    }

    static boolean contains(String word) {
        return WORDS.contains(word);
    }
}
