package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A ranked search of large banks that reads candidates rather than every memory: by words, the heads of the query
 * terms' postings ({@link TermPostings}); by meaning, the vector lists nearest to the query ({@link VectorLists}).
 * Each candidate is then scored exactly as a search of a small bank scores it, and fused the same way
 * ({@link Fusion}). The BM25 statistics are the banks' own, whatever the filters; the note on memories not embedded
 * counts the banks, not the filtered memories. When the candidates the filters admit are fewer than the results
 * asked for, there is no answer here ({@code null}) and the caller searches every memory.
 */
final class LargeSearch {

    /** One large bank: its memories in order, its postings, its vector lists (null: none embedded), its models. */
    record Bank(IndexDoc[] inOrder, TermPostings postings, VectorLists lists, Map<String, Integer> embedded) {
    }

    private LargeSearch() {
    }

    static List<Ranked> rank(RankQuery q, Map<String, Integer> dictionary, List<Bank> banks,
            BiFunction<Indexed, QueryScorer, List<Fusion.Candidate>> neighbours) {
        long size = 0;
        long lengths = 0;
        int withVector = 0;
        for (Bank b : banks) {
            size += b.postings().size;
            lengths += b.postings().totalLength;
            withVector += b.embedded().getOrDefault(q.model(), 0);
        }
        int[] terms = QueryScorer.known(dictionary, q);
        double[] idf = new double[terms.length];
        for (int i = 0; i < terms.length; i++) {
            int holding = 0;
            for (Bank b : banks) {
                holding += b.postings().holding(terms[i]);
            }
            idf[i] = Bm25.idf(size, holding);
        }
        RecallIndex.keepMostInformative(idf);
        QueryScorer scorer = new QueryScorer(q, terms, idf, lengths / (double) Math.max(1, size));

        List<IndexDoc> byWords = new ArrayList<>();
        for (Bank b : banks) {
            BitSet heads = new BitSet(b.inOrder().length);
            for (int i = 0; i < terms.length; i++) {
                if (idf[i] > 0) {
                    int[] list = b.postings().list(terms[i]);
                    for (int j = 0; j < Math.min(list.length, TermPostings.CANDIDATES_PER_TERM); j++) {
                        heads.set(list[j]);
                    }
                }
            }
            for (int p = heads.nextSetBit(0); p >= 0; p = heads.nextSetBit(p + 1)) {
                if (RecallIndex.admits(q, b.inOrder()[p].memory())) {
                    byWords.add(b.inOrder()[p]);
                }
            }
        }
        double[] bm25 = new double[byWords.size()];
        for (int i = 0; i < bm25.length; i++) {
            bm25[i] = scorer.bm25(byWords.get(i));
        }

        List<IndexDoc> byMeaning = new ArrayList<>();
        double[][] similarity = {new double[64]};
        if (q.vector() != null && q.ranking() != Ranking.LEXICAL) {
            for (Bank b : banks) {
                if (b.lists() == null || b.lists().dimensions != q.vector().length) {
                    continue;
                }
                IndexDoc[] in = b.inOrder();
                b.lists().probe(in, q.vector(), b.lists().probes(), Fusion.DEPTH,
                        p -> RecallIndex.admitsInBank(q, in[p].memory()) && q.model().equals(in[p].memory().model()),
                        (position, s) -> {
                            if (byMeaning.size() == similarity[0].length) {
                                similarity[0] = java.util.Arrays.copyOf(similarity[0], similarity[0].length * 2);
                            }
                            similarity[0][byMeaning.size()] = s;
                            byMeaning.add(in[position]);
                        });
            }
        }
        double[] cosine = java.util.Arrays.copyOf(similarity[0], byMeaning.size());

        Map<IndexDoc, Fusion.Candidate> found = new IdentityHashMap<>();
        int[] lexical = RecallIndex.top(bm25, Fusion.DEPTH);
        for (int r = 0; r < lexical.length; r++) {
            IndexDoc d = byWords.get(lexical[r]);
            found.put(d, new Fusion.Candidate(d.memory(), bm25[lexical[r]], r + 1,
                    RecallIndex.boxed(scorer.cosine(d)), null));
        }
        int[] semantic = RecallIndex.top(cosine, Fusion.DEPTH);
        for (int r = 0; r < semantic.length; r++) {
            IndexDoc d = byMeaning.get(semantic[r]);
            Fusion.Candidate c = found.get(d);
            found.put(d, new Fusion.Candidate(d.memory(), c != null ? c.lexical() : RecallIndex.boxed(scorer.bm25(d)),
                    c == null ? null : c.lexicalRank(), cosine[semantic[r]], r + 1));
        }
        if (found.size() < q.topK()) {
            return null;
        }
        String note = RecallIndex.note(q, (int) Math.min(Integer.MAX_VALUE, size), withVector);
        Map<Indexed, List<Fusion.Candidate>> near = new IdentityHashMap<>();
        return Fusion.fuse(q, List.copyOf(found.values()),
                m -> near.computeIfAbsent(m, x -> neighbours.apply(x, scorer)), note);
    }
}
