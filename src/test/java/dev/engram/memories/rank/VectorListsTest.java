package dev.engram.memories.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class VectorListsTest {

    private static final int DIMENSIONS = 384;
    private final Random random = new Random(5);

    private float[] unit() {
        return UnitVectors.next(random, DIMENSIONS);
    }

    private IndexDoc[] bank(int size) {
        IndexDoc[] docs = new IndexDoc[size];
        for (int i = 0; i < size; i++) {
            float[] v = unit();
            docs[i] = new IndexDoc(new Indexed("m" + i, "b", "fact", false, false, 0.5, 0, Instant.EPOCH, i, "", "m",
                    v), new int[0], new int[0], 0, v);
        }
        return docs;
    }

    @Test
    void aCodeTimesItsScaleIsWithinHalfAStepOfItsFloat() {
        float[] v = unit();
        byte[] codes = new byte[DIMENSIONS + 3];
        float scale = VectorLists.encode(v, codes, 3);
        float largest = 0;
        for (float x : v) {
            largest = Math.max(largest, Math.abs(x));
        }
        assertEquals(largest / 127, scale, 1e-9);
        for (int j = 0; j < DIMENSIONS; j++) {
            assertEquals(v[j], codes[3 + j] * scale, scale / 2 + 1e-7, "component " + j);
        }
        assertEquals(0, VectorLists.encode(new float[4], new byte[4], 0));
    }

    @Test
    void probingEveryListHandsOnTheExactBestWithTheirExactSimilarities() {
        IndexDoc[] docs = bank(3000);
        VectorLists lists = VectorLists.build(docs, DIMENSIONS, null);
        for (int t = 0; t < 20; t++) {
            float[] query = unit();
            List<Integer> handed = new ArrayList<>();
            lists.probe(docs, query, Integer.MAX_VALUE, 25, p -> p % 3 != 0, (position, similarity) -> {
                assertEquals(BankVectors.dot(docs[position].vector(), query), similarity, 0);
                handed.add(position);
            });
            List<Integer> exact = IntStream.range(0, docs.length).filter(p -> p % 3 != 0).boxed()
                    .sorted(Comparator.comparingDouble((Integer p) -> -BankVectors.dot(docs[p].vector(), query)))
                    .limit(25).sorted().toList();
            assertEquals(exact, handed.stream().sorted().toList(), "query " + t);
        }
    }

    @Test
    void aProbeOfSomeListsComparesOnlyTheirVectorsAndHandsOnTheNearestListFirst() {
        IndexDoc[] docs = bank(4000);
        VectorLists lists = VectorLists.build(docs, DIMENSIONS, null);
        float[] query = docs[1234].vector();
        List<Integer> handed = new ArrayList<>();
        int[] asked = {0};
        lists.probe(docs, query, 1, 10, p -> {
            asked[0]++;
            return true;
        }, (position, similarity) -> handed.add(position));
        // its own list first, and the vector itself in it; one list of 32 is far fewer than the bank
        assertTrue(handed.contains(1234), handed.toString());
        assertTrue(asked[0] < 4000 / 4, asked[0] + " vectors asked about");
        assertEquals(10, handed.size());
        int[] sorted = handed.stream().mapToInt(Integer::intValue).toArray();
        int[] copy = sorted.clone();
        Arrays.sort(copy);
        assertEquals(Arrays.toString(copy), Arrays.toString(sorted), "a list holds its positions in order");
    }
}
