package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.BOB;
import static dev.engram.memories.RecallCases.citations;
import static dev.engram.memories.RecallCases.idsOf;
import static dev.engram.memories.RecallCases.memory;
import static dev.engram.memories.RecallCases.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.ReflectionFailed;
import dev.engram.memories.RecallCases.Scripted;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec's scenarios of reflection (part of {@link RecallContract}): facts consolidated into observations by a
 * reflector, and what a reflection refuses or leaves waiting (T20-T22).
 */
interface RecallReflectionContract extends RecallUnderTest {

    @Test
    default void t20ThreeFactsBecomeOneObservationAndASecondRunAsksNothing() {
        Recall r = newRecall();
        for (String id : List.of("f1", "f2", "f3")) {
            r.save(memory(id, ALICE, "Apollo fact " + id, 0.5));
            clock().advance(Duration.ofSeconds(1));
        }
        r.save(memory("elsewhere", BOB, "Apollo fact of bob", 0.5));
        Scripted reflector = new Scripted((facts, existing) -> List.of(new Observation("Apollo is on track.", 0.75,
                idsOf(facts), false, "")));
        Reflected first = reflect(r, ALICE, reflector);
        assertEquals(List.of("f1", "f2", "f3"), idsOf(reflector.facts), "oldest first, only the bank's facts");
        assertEquals(3, first.reviewed());
        assertEquals(1, first.created());
        assertEquals(0, first.updated());
        assertEquals(1, first.newIds().size());
        assertEquals("scripted", first.reflector());
        Memory o = r.get(first.newIds().get(0));
        assertEquals("observation", o.type());
        assertEquals("consolidated", o.source());
        assertEquals(0.75, o.importance());
        assertEquals(0.75, o.confidence());
        assertEquals(List.of("f1", "f2", "f3"), o.evidence());
        assertEquals("user:alice", o.bank().bankId());
        assertEquals(clock().instant(), o.createdAt());
        assertEquals(clock().instant(), o.validFrom());

        Reflected second = reflect(r, ALICE, reflector);
        assertEquals(1, reflector.calls, "not called again");
        assertEquals(0, second.created());
        assertEquals(0, second.reviewed());
        assertEquals(Reflection.TOO_FEW, second.note());
    }

    @Test
    default void t21OneFactIsNotEnoughAndTheReflectorIsNotAsked() {
        Recall r = newRecall();
        r.save(memory("only", ALICE, "Apollo ships on Friday.", 0.5));
        r.save(new Memory("skill", ALICE, "skill", "Deploy with make.", 0.5, List.of(), List.of(), "", 0, List.of(),
                null, null, "", false, false, null, "", 0, null, null, null, List.of()));
        Scripted reflector = new Scripted((facts, existing) -> {
            throw new AssertionError("not to be called");
        });
        Reflected result = reflect(r, ALICE, reflector);
        assertEquals(1, result.reviewed(), "other types are not candidates");
        assertEquals(Reflection.TOO_FEW, result.note());
        assertEquals(0, result.created());
        assertEquals(2, r.list(10, 0).total());
    }

    @Test
    default void t22ThinObservationsAreSkippedAndAnUpdateSupersedesTheOldObservation() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        Reflected first = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("One and two.", 0.6, List.of("f1", "f2"), false, ""))));
        String old = first.newIds().get(0);
        clock().advance(Duration.ofMinutes(1));
        r.save(memory("f3", ALICE, "three", 0.5));
        r.save(memory("f4", ALICE, "four", 0.5));
        Reflected second = reflect(r, ALICE, new Scripted((facts, existing) -> {
            assertEquals(List.of(old), idsOf(existing));
            return List.of(new Observation("Just three.", 0.9, List.of("f3"), false, ""),
                    new Observation("", 0.9, List.of("f3", "f4"), false, ""),
                    new Observation("One to four.", 0.8, List.of("f1", "f2", "f3", "f4"), true, old));
        }));
        assertEquals(0, second.created());
        assertEquals(1, second.updated());
        assertEquals(1, second.newIds().size());
        Memory stale = r.get(old);
        assertEquals(second.newIds().get(0), stale.supersededBy());
        assertEquals(clock().instant(), stale.validTo());
        assertTrue(r.get(second.newIds().get(0)).conflicting());
        assertEquals(6, r.list(20, 0).total(), "four facts and two observations: the skipped ones did not land");
    }

    @Test
    default void aZeroConfidenceObservationIsImportantByDefaultAndStaleObservationsCiteNothing() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        String first = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("Both.", 0, idsOf(facts), false, "")))).newIds().get(0);
        Memory o = r.get(first);
        assertEquals(0.5, o.importance());
        assertEquals(0.0, o.confidence());
        r.supersede(first, "");
        Scripted again = new Scripted((facts, existing) -> List.of());
        Reflected result = reflect(r, ALICE, again);
        assertEquals(List.of("f1", "f2"), idsOf(again.facts), "a stale observation's evidence is new again");
        assertEquals(0, result.created());
        assertTrue(result.newIds().isEmpty());
    }

    @Test
    default void aReflectionWithOneBadObservationLandsNothing() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        long before = r.list(10, 0).total();
        for (Observation bad : List.of(
                new Observation("Cites a stranger.", 0.5, List.of("f1", "nobody"), false, ""),
                new Observation("   ", 0.5, List.of("f1", "f2"), false, ""),
                new Observation("Too sure.", 1.5, List.of("f1", "f2"), false, ""),
                new Observation("Not a number.", Double.NaN, List.of("f1", "f2"), false, ""),
                new Observation("Replaces a fact.", 0.5, List.of("f1", "f2"), false, "f1"),
                new Observation("x".repeat(MemoryRules.MAX_CONTENT_BYTES + 1), 0.5, List.of("f1", "f2"), false, ""))) {
            ReflectionFailed e = assertThrows(ReflectionFailed.class, () -> reflect(r, ALICE, new Scripted(
                    (facts, existing) -> List.of(new Observation("Fine.", 0.5, List.of("f1", "f2"), false, ""),
                            bad))));
            assertEquals(ReflectionFailed.Kind.MALFORMED, e.kind());
            assertTrue(e.getMessage().contains("observation 2"), e.getMessage());
            assertEquals(before, r.list(10, 0).total(), "the good first observation did not land either");
        }
    }

    @Test
    default void aFactChangedWhileTheReflectorThinksFailsTheReflectionWhole() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        ReflectionFailed e = assertThrows(ReflectionFailed.class, () -> reflect(r, ALICE, new Scripted(
                (facts, existing) -> {
                    clock().advance(Duration.ofSeconds(1));
                    r.save(memory("f2", ALICE, "two, corrected", 0.5));
                    return List.of(new Observation("One and two.", 0.5, List.of("f1", "f2"), false, ""));
                })));
        assertEquals(ReflectionFailed.Kind.BANK_CHANGED, e.kind());
        assertTrue(e.getMessage().contains("f2"), e.getMessage());
        assertEquals(2, r.list(10, 0).total());
    }

    @Test
    default void theDeterministicReflectorGroupsByTopicAndExtendsItsObservation() {
        Recall r = newRecall();
        r.save(tagged("a1", ALICE, "Apollo ships Friday.", 0.8, List.of("apollo"), List.of()));
        r.save(tagged("a2", ALICE, "Apollo needs QA sign-off.", 0.6, List.of("apollo", "qa"), List.of()));
        r.save(tagged("g1", ALICE, "Gardening on Sunday.", 0.5, List.of("home"), List.of()));
        r.save(tagged("k1", ALICE, "Coffee on Tuesdays.", 0.4, List.of(), List.of("office")));
        r.save(tagged("k2", ALICE, "Printer on floor 2.", 0.2, List.of(), List.of("office")));
        Reflected first = reflect(r, ALICE, new TopicReflector());
        assertEquals(5, first.reviewed());
        assertEquals(2, first.created());
        List<String> contents = first.newIds().stream().map(id -> r.get(id).content()).toList();
        assertEquals(List.of("About apollo: Apollo ships Friday. / Apollo needs QA sign-off.",
                "About office: Coffee on Tuesdays. / Printer on floor 2."), contents);
        assertEquals(0.7, r.get(first.newIds().get(0)).confidence(), 1e-12);
        String apollo = first.newIds().get(0);

        clock().advance(Duration.ofMinutes(1));
        r.save(tagged("a3", ALICE, "Apollo demo moved.", 0.9, List.of("apollo"), List.of()));
        r.save(tagged("a4", ALICE, "Apollo docs done.", 0.5, List.of("apollo"), List.of()));
        Reflected second = reflect(r, ALICE, new TopicReflector());
        assertEquals(3, second.reviewed(), "g1, a3, a4");
        assertEquals(1, second.updated());
        Memory extended = r.get(second.newIds().get(0));
        assertEquals("About apollo: Apollo ships Friday. / Apollo needs QA sign-off. / Apollo demo moved. / "
                + "Apollo docs done.", extended.content());
        assertEquals(List.of("a1", "a2", "a3", "a4"), extended.evidence());
        assertEquals(extended.id(), r.get(apollo).supersededBy());
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 200})
    default void aTopicOfMoreFactsThanOneObservationCanCiteIsConsolidatedInSeveral(int n) {
        Recall r = newRecall();
        Map<String, Integer> once = new HashMap<>();
        for (int i = 0; i < n; i++) {
            r.save(tagged("f" + i, ALICE, "Fact number " + i + ".", 0.5, List.of("t"), List.of()));
            once.put("f" + i, 1);
        }
        Reflected first = reflect(r, ALICE, new TopicReflector());
        assertEquals(n, first.reviewed());
        assertEquals(once, citations(r, ALICE));

        clock().advance(Duration.ofMinutes(1));
        for (int i = n; i < n + 3; i++) {
            r.save(tagged("f" + i, ALICE, "Fact number " + i + ".", 0.5, List.of("t"), List.of()));
            once.put("f" + i, 1);
        }
        Reflected second = reflect(r, ALICE, new TopicReflector());
        assertEquals(3, second.reviewed());
        assertEquals(once, citations(r, ALICE));
    }

    @Test
    default void aReflectorIsGivenNoMoreFactsThanItTakesAtOnceAndTheRestWait() {
        Recall r = newRecall();
        for (int i = 0; i < 70; i++) {
            r.save(memory("f" + i, ALICE, "Fact " + i, 0.5));
        }
        List<Integer> given = new java.util.ArrayList<>();
        Reflector bounded = new Reflector() {
            @Override
            public String name() {
                return "bounded";
            }

            @Override
            public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
                given.add(facts.size());
                return List.of(new Observation("All of them.", 0.5, idsOf(facts), false, ""));
            }

            @Override
            public int maxFacts() {
                return MemoryRules.MAX_SET_SIZE;
            }
        };
        Reflected first = reflect(r, ALICE, bounded);
        assertEquals(MemoryRules.MAX_SET_SIZE, first.reviewed());
        assertTrue(first.note().startsWith("6 more new facts wait"), first.note());
        Reflected second = reflect(r, ALICE, bounded);
        assertEquals(6, second.reviewed());
        assertEquals(List.of(64, 6), given);
        assertEquals(70, citations(r, ALICE).size());
    }
}
