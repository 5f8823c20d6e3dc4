package dev.engram.memories;

import dev.engram.memories.rank.QueryTokens;
import dev.engram.memories.rank.Relevance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.kernel.Invalid;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parts of recall that need no store: banks, the tokeniser, the score, the entrypoint and context strings. */
class PureRecallTest {

    static final Instant NOW = Instant.parse("2026-06-17T09:30:00Z");

    @ParameterizedTest(name = "{0}/{1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "user|alice|user:alice", "weird|a|global", "team|' '|team", "session|' s-1 '|session:s-1",
        "global|ignored|global", "''|x|global", "agent|planner|agent:planner"})
    void aScopeNormalisesToItsBankId(String type, String id, String bankId) {
        assertEquals(bankId, new Bank(type, id).bankId());
    }

    @Test
    void aBankIdParsesBackOrIsRefused() {
        assertEquals("user:alice", Bank.parse("user:alice").bankId());
        assertEquals("global", Bank.parse("global").bankId());
        assertEquals("team", Bank.parse("team").bankId());
        for (String bad : List.of("", "weird", "user:", "user: alice", "global:x", "user:a/b", "user:a%2F",
                "User:alice", "user:a b", "user:caf\uFFFD", "user:" + "x".repeat(300))) {
            Invalid e = assertThrows(Invalid.class, () -> Bank.parse(bad), bad);
            assertEquals("bank-format", e.rule());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "Don't_stop, v2.0!|don,t,stop,v2,0",
        "GPT阿波罗项目|gpt,阿波罗项目,阿波,波罗,罗项,项目",
        "APOLLO apollo|apollo",
        "'  Apollo Friday  '|apollo,friday",
        "乘法|乘法",
        "四则运算|四则运算,四则,则运,运算",
        "𠀀𠀁x|𠀀𠀁,x",
        "ｶﾀｶﾅ 카나|ｶﾀｶﾅ,카나"})
    void theTokeniserSplitsAsTheReferenceDoes(String query, String tokens) {
        assertEquals(List.of(tokens.split(",")), QueryTokens.of(query));
    }

    @Test
    void aQueryWithoutWordsHasNoTokens() {
        assertEquals(List.of(), QueryTokens.of("!!!"));
        assertEquals(List.of(), QueryTokens.of("  "));
        assertEquals(List.of(), QueryTokens.of("😀 _ '"));
    }

    @Test
    void theWorkedRankingExamplesOfTheSpec() {
        // 1. Two tokens of "Apollo Friday", importance 0.9, age 0; one token, importance 0.2.
        assertEquals(2.0 / 3 * 0.95, Relevance.score(2, 0.9, NOW, NOW), 1e-9);
        assertEquals(0.6333, Relevance.score(2, 0.9, NOW, NOW), 1e-4);
        assertEquals(0.3, Relevance.score(1, 0.2, NOW, NOW), 1e-9);
        // 2. rank -2, importance 0.5, 30 days.
        Instant thirtyDays = NOW.minus(Duration.ofDays(30));
        assertEquals(2.0 / 3 * 0.75 * Math.exp(-0.21), Relevance.score(2, 0.5, thirtyDays, NOW), 1e-9);
        assertEquals(0.40529, Relevance.score(2, 0.5, thirtyDays, NOW), 1e-5);
        // 3. importance -0.4 counts as 0.5; one token; one half-life (ln 2 / 0.007 days).
        Instant halfLife = NOW.minusNanos(Math.round(Math.log(2) / 0.007 * 86_400e9));
        assertEquals(0.1875, Relevance.score(1, -0.4, halfLife, NOW), 1e-9);
        // 4. bm25 -3.5 (the SQLite path), importance 0.8, 7 days.
        Instant week = NOW.minus(Duration.ofDays(7));
        assertEquals(3.5 / 4.5 * 0.9 * Math.exp(-0.049), Relevance.score(3.5, 0.8, week, NOW), 1e-9);
        assertEquals(0.66653, Relevance.score(3.5, 0.8, week, NOW), 1e-5);
    }

    @Test
    void noRelevanceScoresZeroAndAFutureCreationDoesNotGrow() {
        assertEquals(0, Relevance.score(0, 0.9, NOW, NOW), 0);
        assertEquals(Relevance.score(1, 0.5, NOW, NOW), Relevance.score(1, 0.5, NOW.plusSeconds(3600), NOW), 0);
        assertEquals(99.021, Math.log(2) / Relevance.DECAY_PER_DAY, 1e-3);
    }

    @Test
    void theEntrypointIsByteForByteTheReferences() {
        Memory a = Memory.draft(new Bank("user", "alice"), "fact", "  Top priority ", 0.9);
        Memory b = Memory.draft(new Bank("user", "alice"), "fact", "Lower priority", 0.3);
        assertEquals("# Memory Entrypoint\n\n- Scope: `user:alice`\n- Generated: 2026-06-17T09:30:00Z\n\n"
                + "## 1. [fact] 0.90\n\nTop priority\n\n## 2. [fact] 0.30\n\nLower priority\n\n",
                Entrypoint.render("", "user:alice", NOW.plusMillis(999), List.of(a, b)));
        assertEquals("# Mine\n\n- Scope: `global`\n- Generated: 2026-06-17T09:30:00Z\n\n_No memories yet._\n",
                Entrypoint.render("Mine", "global", NOW, List.of()));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"0.125,0.12", "0.375,0.38", "0.5,0.50", "1,1.00", "0.005,0.01", "0.015,0.01", "0.999,1.00"})
    void importanceIsPrintedWithTwoDecimalsAsGoPrintsIt(double value, String printed) {
        assertEquals(printed, Entrypoint.twoDecimals(value));
    }

    @Test
    void theContextStringOfTheSpec() {
        Map<String, String> slots = new LinkedHashMap<>();
        slots.put("SOUL", ContextSlots.append("be helpful", "be concise"));
        slots.put("HEARTBEAT", "[ ] check inbox");
        slots.put("TOOLS", "   ");
        assertEquals("# SOUL\n\nbe helpful\nbe concise\n\n# HEARTBEAT\n\n[ ] check inbox",
                ContextSlots.build(null, slots));
        assertEquals("# HEARTBEAT\n\n[ ] check inbox\n\n# SOUL\n\nbe helpful\nbe concise",
                ContextSlots.build(List.of("HEARTBEAT", "SOUL"), slots));
        assertEquals("", ContextSlots.build(List.of(), Map.of()));
        assertEquals("a\nb", ContextSlots.append("a\n", "b"));
        assertEquals("b", ContextSlots.append("", "b"));
    }

    @Test
    void saveDefaultsAndSets() {
        Memory m = new Memory("", new Bank("session", " s-1 "), "", "Plain note.", 0, List.of(" b", "a", "b", " "),
                null, "", 0.25, List.of("src-2", "src-1"), null, null, null, false, false, null, null, 0, null, null,
                null, null).saved(NOW);
        assertEquals(36, m.id().length());
        assertEquals("fact", m.type());
        assertEquals("user_input", m.source());
        assertEquals(0.5, m.importance());
        assertEquals(0.25, m.confidence());
        assertEquals(NOW, m.createdAt());
        assertEquals(NOW, m.validFrom());
        assertEquals(NOW, m.updatedAt());
        assertEquals(List.of("a", "b"), m.tags());
        assertEquals(List.of("src-1", "src-2"), m.evidence());
        assertEquals("session:s-1", m.bank().bankId());
        assertEquals(" s-1 ", m.bank().id());
        assertEquals(List.of("z", "\uFFFD", "𠀀"), Memory.set(List.of("𠀀", "\uFFFD", "z")), "code point order");
    }

    @Test
    void nonsenseIsRefused() {
        Memory ok = Memory.draft(Bank.GLOBAL, "fact", "x", 0.5).saved(NOW);
        MemoryRules.check(ok, NOW);
        for (Memory bad : List.of(Memory.draft(Bank.GLOBAL, "fact", " ", 0.5), Memory.draft(Bank.GLOBAL, "fact", "x",
                -0.3), Memory.draft(Bank.GLOBAL, "fact", "x", 1.7), Memory.draft(Bank.GLOBAL, "fiction", "x", 0.5),
                Memory.draft(Bank.GLOBAL, "fact", "x".repeat(MemoryRules.MAX_CONTENT_BYTES + 1), 0.5),
                Memory.draft(Bank.GLOBAL, "fact", "a\0b", 0.5))) {
            assertThrows(Invalid.class, () -> MemoryRules.check(bad.saved(NOW), NOW), bad.content());
        }
    }

    @Test
    void newFactsOfATopicGoToItsObservationWithMostRoomWhicheverSortsLast() {
        Bank alice = new Bank("user", "alice");
        List<String> full = java.util.stream.IntStream.range(0, 63).mapToObj(i -> "f" + i).toList();
        Memory wide = observation("o-wide", alice, "About t: " + String.join(" / ", full), full);
        Memory narrow = observation("o-narrow", alice, "About t: Fact 63 / Fact 64", List.of("f63", "f64"));
        List<Memory> facts = List.of(fact("f65", alice, "Fact 65"), fact("f66", alice, "Fact 66"));
        for (List<Memory> existing : List.of(List.of(narrow, wide), List.of(wide, narrow))) {
            List<Observation> made = new TopicReflector().consolidate(facts, existing);
            assertEquals(1, made.size(), made.toString());
            assertEquals("o-narrow", made.get(0).updates());
            assertEquals(List.of("f63", "f64", "f65", "f66"), made.get(0).evidence());
        }
    }

    private static Memory fact(String id, Bank bank, String content) {
        return new Memory(id, bank, "fact", content, 0.5, List.of("t"), List.of(), "", 0, List.of(), null, null, "",
                false, false, null, "", 0, null, null, null, List.of());
    }

    private static Memory observation(String id, Bank bank, String content, List<String> evidence) {
        return new Memory(id, bank, "observation", content, 0.5, List.of("t"), List.of(), "", 0, evidence, null,
                null, "", false, false, null, "", 0, null, null, null, List.of());
    }
}
