package dev.engram.memories.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BestScoresTest {

    private record Scored(double score, int seen, int position) {
    }

    @Test
    void keepsTheBestOfAStreamTiesToTheFirstSeenAndHandsThemOnInTheOrderSeen() {
        Random random = new Random(3);
        for (int trial = 0; trial < 200; trial++) {
            int most = random.nextInt(12);
            BestScores best = new BestScores(most);
            List<Scored> all = new ArrayList<>();
            int n = random.nextInt(300);
            for (int i = 0; i < n; i++) {
                // few distinct scores, so that ties are common
                Scored s = new Scored(random.nextInt(20) / 4.0, i, 1000 + i);
                all.add(s);
                if (best.wants(s.score())) {
                    best.add(s.score(), s.seen(), s.position());
                }
            }
            List<Scored> expected = all.stream()
                    .sorted(Comparator.comparingDouble(Scored::score).reversed().thenComparingInt(Scored::seen))
                    .limit(most).sorted(Comparator.comparingInt(Scored::seen)).toList();
            List<Scored> handed = new ArrayList<>();
            best.handOnInOrder((position, similarity) -> handed.add(new Scored(similarity, position - 1000,
                    position)));
            assertEquals(expected, handed, "trial " + trial);
        }
    }
}
