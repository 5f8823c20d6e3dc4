package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.BOB;
import static dev.engram.memories.RecallCases.ids;
import static dev.engram.memories.RecallCases.memory;
import static dev.engram.memories.RecallCases.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.memories.rank.Ranking;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The spec's scenarios of searching memories (part of {@link RecallContract}): ranked search scored as the
 * reference does, filters, token counts and CJK queries (T5-T11), byte-bounded pages and refused queries.
 */
interface RecallSearchContract extends RecallUnderTest {

    @Test
    default void listsAndSearchesEndBeforeTheMemoryThatWouldTakeThemOverTheByteBound() {
        Recall r = newRecall();
        for (String id : List.of("m1", "m2", "m3", "m4", "m5")) {
            r.save(memory(id, ALICE, "needle " + "x".repeat(93), 0.5));
        }
        MemoryPage first = r.list(10, 0, 250);
        assertEquals(List.of("m1", "m2"), first.memories().stream().map(Memory::id).toList());
        assertTrue(first.truncated());
        assertEquals(5, first.total());
        MemoryPage last = r.list(10, 4, 250);
        assertEquals(List.of("m5"), last.memories().stream().map(Memory::id).toList());
        assertFalse(last.truncated());
        assertEquals(1, r.list(10, 0, 1).memories().size(), "the first is always sent");
        assertFalse(r.list(3, 0, 1 << 20).truncated(), "the limit is not the bound");

        dev.engram.kernel.Paged<Memory> bank = r.inBank(ALICE, 10, 250);
        assertEquals(List.of("m1", "m2"), bank.items().stream().map(Memory::id).toList());
        assertTrue(bank.more());
        assertFalse(r.inBank(ALICE, 10, 1 << 20).more());
        dev.engram.kernel.Paged<Memory> facts = r.ofType("fact", 10, 250);
        assertEquals(2, facts.items().size());
        assertTrue(facts.more());
        assertEquals(5, r.ofType("fact", 10, 1 << 20).items().size());

        dev.engram.kernel.Paged<Scored> found = r.search(SearchOptions.of("needle"), 250);
        assertEquals(2, found.items().size());
        assertTrue(found.more());
        assertFalse(r.search(SearchOptions.of("needle"), 1 << 20).more());
        assertEquals(5, r.search(SearchOptions.of("needle"), 1 << 20).items().size());
    }

    @Test
    default void t5RankedSearchScoresAsTheReferenceDoes() {
        Recall r = newRecall();
        r.save(memory("hi", ALICE, "Apollo project ships on Friday", 0.9));
        r.save(memory("lo", ALICE, "Apollo unrelated trivia", 0.2));
        r.save(memory("garden", ALICE, "Completely different topic about gardening", 0.5));
        List<Scored> found = r.search(SearchOptions.of("Apollo Friday").ranked(Ranking.SEED));
        assertEquals(List.of("hi", "lo"), found.stream().map(s -> s.memory().id()).toList());
        assertEquals(2.0 / 3 * 0.95, found.get(0).score(), 1e-9);
        assertEquals(0.3, found.get(1).score(), 1e-9);
        assertEquals(0, r.get("hi").accessCount(), "a search is not an access");
    }

    @Test
    default void t6StaleAndArchivedAreLeftOutUnlessAskedFor() {
        Recall r = newRecall();
        r.save(memory("landed", ALICE, "Mars rover landed", 0.5));
        r.save(memory("old", ALICE, "Mars old report", 0.5));
        r.save(memory("retired", ALICE, "Mars retired note", 0.5));
        r.supersede("old", "landed");
        r.archive("retired", "done");
        assertEquals(List.of("landed"), ids(r.search(SearchOptions.of("Mars"))));
        assertEquals(3, r.search(new SearchOptions("Mars", 0, 0, true, true, "", List.of())).size());
    }

    @Test
    default void t7ABankFilterKeepsOtherBanksOut() {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "secret apollo plan", 0.5));
        r.save(memory("b", BOB, "secret apollo plan", 0.5));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("secret", 0, 0, false, false, "",
                List.of("user:alice")))));
    }

    @Test
    default void t8RankingFiltersAndNothingFound() {
        Recall r = newRecall();
        r.save(tagged("s1", ALICE, "The deployment pipeline runs on GitLab CI.", 0.9, List.of("ci"),
                List.of("gitlab", "pipeline")));
        r.save(memory("s2", ALICE, "Coffee is restocked on Tuesdays.", 0.5));
        r.save(memory("s3", ALICE, "Backups are written to object storage nightly.", 0.5));
        List<Scored> found = r.search(SearchOptions.of("gitlab pipeline"));
        assertEquals("s1", found.get(0).memory().id());
        for (int i = 1; i < found.size(); i++) {
            assertTrue(found.get(i).score() <= found.get(i - 1).score());
        }
        assertTrue(found.get(0).score() > 0 && found.get(0).score() <= 1);
        assertEquals(List.of(), r.search(SearchOptions.of("helicopter")));
        assertEquals(List.of(), r.search(new SearchOptions("gitlab", 0, 0, false, false, "observation", List.of())));
        assertEquals(List.of(), r.search(new SearchOptions("gitlab", 0, 0, false, false, "", List.of("user:bob"))));
        assertEquals("s1", r.search(new SearchOptions("gitlab", 0, 0, false, false, "", List.of("user:alice")))
                .get(0).memory().id());
    }

    @Test
    default void t9TokenCountsTieWhereBm25WouldNot() {
        // Engram follows the reference's PostgreSQL path: relevance is the number of query tokens matched, so
        // "gateway" five times and once score alike, and the newer row wins on decay (SPEC §8 T9, decided).
        Recall r = newRecall();
        String f = "unrelated prose about deployment pipelines and dashboards. ".repeat(60);
        r.save(memory("strong", ALICE, "gateway ".repeat(5), 0.5));
        clock().advance(Duration.ofMinutes(1));
        r.save(memory("weak", ALICE, f + " gateway " + f, 0.5));
        for (int i = 0; i < 3; i++) {
            r.save(memory("f" + i, ALICE, f, 0.5));
        }
        List<Scored> found = r.search(SearchOptions.of("gateway").ranked(Ranking.SEED));
        assertEquals(2, found.size());
        assertEquals("weak", found.get(0).memory().id());
        List<Scored> bm25 = r.search(SearchOptions.of("gateway").ranked(Ranking.LEXICAL));
        assertEquals(List.of("strong", "weak"), ids(bm25), "BM25 weighs the count and the length");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Ranking.class, names = {"SEED", "HYBRID", "LEXICAL"})
    default void t10AndT11CjkQueriesFindTheirRows(Ranking ranking) {
        Recall r = newRecall();
        r.save(memory("apollo", ALICE, "阿波罗项目周五发布", 0.5));
        r.save(memory("c1", ALICE, "乘法和除法是四则运算的一部分", 0.5));
        r.save(memory("c2", ALICE, "周长是围绕图形一周的长度", 0.5));
        r.save(memory("c3", ALICE, "乘法和除法是四则运算的一部分，分数的加减法需要先通分", 0.5));
        assertEquals("apollo", r.search(SearchOptions.of("阿波罗").ranked(ranking)).get(0).memory().id());
        List<String> arithmetic = ids(r.search(SearchOptions.of("四则运算").ranked(ranking)));
        assertTrue(arithmetic.indexOf("c1") >= 0 && !arithmetic.contains("c2"), arithmetic.toString());
        assertFalse(r.search(SearchOptions.of("乘法").ranked(ranking)).isEmpty());
        assertFalse(r.search(SearchOptions.of("分数").ranked(ranking)).isEmpty());
        assertEquals(List.of("apollo"), ids(r.search(SearchOptions.of("Apollo 阿波罗 发布").ranked(ranking))));
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Ranking.class, names = {"HYBRID", "LEXICAL"})
    default void aSearchSeesEveryChangeMadeBeforeIt(Ranking ranking) {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "The lighthouse keeper paints boats.", 0.5));
        r.save(memory("b", ALICE, "Coffee is restocked on Tuesdays.", 0.5));
        assertEquals(List.of("a"), ids(r.search(SearchOptions.of("lighthouse").ranked(ranking))));
        r.save(memory("a", ALICE, "The harbour master counts gulls.", 0.5));
        assertEquals(List.of(), ids(r.search(SearchOptions.of("lighthouse").ranked(ranking))));
        assertEquals(List.of("a"), ids(r.search(SearchOptions.of("gulls").ranked(ranking))));
        r.archive("a", "old");
        assertEquals(List.of(), ids(r.search(SearchOptions.of("gulls").ranked(ranking))));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("gulls", 0, 0, true, false, "", List.of())
                .ranked(ranking))));
        r.delete("a");
        assertEquals(List.of(), ids(r.search(new SearchOptions("gulls", 0, 0, true, true, "", List.of())
                .ranked(ranking))));
        r.save(memory("a", BOB, "Gulls again, in another bank.", 0.5));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("gulls", 0, 0, false, false, "",
                List.of("user:bob")).ranked(ranking))));
        assertEquals(List.of(), ids(r.search(new SearchOptions("gulls", 0, 0, false, false, "",
                List.of("user:alice")).ranked(ranking))));
        assertEquals(2, r.clear());
        assertEquals(List.of(), ids(r.search(SearchOptions.of("gulls coffee").ranked(ranking))));
    }

    @Test
    default void aQueryWithAnUnpairedSurrogateIsRefusedAsOneWithNulIs() {
        Recall r = newRecall();
        r.save(memory("m", ALICE, "Apollo ships on Friday.", 0.5));
        assertEquals("query-encoding", assertThrows(dev.engram.kernel.Invalid.class,
                () -> r.search(SearchOptions.of("apollo \udc00"))).rule());
        assertNotNull(r.search(SearchOptions.of("apollo \ud83d\ude80")), "a pair is text, searched");
    }
}
