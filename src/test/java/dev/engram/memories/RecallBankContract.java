package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.BOB;
import static dev.engram.memories.RecallCases.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spec's scenarios of a bank's own records (part of {@link RecallContract}): its settings, mental models,
 * slots and context string, and its entrypoint (T13-T17).
 */
interface RecallBankContract extends RecallUnderTest {

    @Test
    default void t13BankSettingsAreNotFoundUntilConfiguredThenReplacedWhole() {
        Bank infra = new Bank("team", "infra");
        Recall r = newRecall();
        assertThrows(NotFound.class, () -> r.settings(infra));
        r.configure(infra, new BankSettings("keep the fleet up", List.of("page on outage", "write a summary"), 3, 2,
                1));
        r.configure(infra, new BankSettings("keep the fleet up, quietly", List.of("page on outage",
                "write a summary"), 3, 2, 1));
        BankSettings s = r.settings(infra);
        assertEquals("keep the fleet up, quietly", s.mission());
        assertEquals(2, s.directives().size());
        assertEquals(3, s.skepticism());
        assertThrows(Invalid.class, () -> r.configure(infra, new BankSettings("", List.of(), 11, 0, 0)));
        assertEquals(3, r.settings(infra).skepticism());
    }

    @Test
    default void t14MentalModelsAreSavedWholeAndDeleted() {
        Recall r = newRecall();
        r.saveModel(new MentalModel("mm-1", "Alice", "", "first", List.of("a", "b"), null));
        clock().advance(Duration.ofSeconds(1));
        r.saveModel(new MentalModel("mm-1", "Alice", "", "second", List.of("a"), null));
        assertEquals(1, r.models().size());
        assertEquals("second", r.model("mm-1").content());
        assertEquals(List.of("a"), r.model("mm-1").tags());
        assertEquals(clock().instant(), r.model("mm-1").updatedAt());
        assertThrows(Invalid.class, () -> r.saveModel(new MentalModel("", "x", "", "content", List.of(), null)));
        assertThrows(Invalid.class, () -> r.saveModel(new MentalModel("mm-2", "x", "", " ", List.of(), null)));
        r.deleteModel("mm-1");
        r.deleteModel("mm-1");
        assertEquals(List.of(), r.models());
        assertThrows(NotFound.class, () -> r.model("mm-1"));
    }

    @Test
    default void t15AndT16SlotsAppendAndMakeTheContextString() {
        Recall r = newRecall();
        assertTrue(r.slot(ALICE, "SOUL").isEmpty());
        r.setSlot(ALICE, "SOUL", "on-call for storage");
        assertEquals("on-call for storage\nand for the GUI", r.appendSlot(ALICE, "SOUL", "and for the GUI"));
        r.deleteSlot(ALICE, "SOUL");
        assertTrue(r.slot(ALICE, "SOUL").isEmpty());
        r.deleteSlot(ALICE, "SOUL");
        r.setSlot(ALICE, "SOUL", "be helpful");
        r.appendSlot(ALICE, "SOUL", "be concise");
        r.setSlot(ALICE, "HEARTBEAT", "[ ] check inbox");
        r.setSlot(ALICE, "TOOLS", "");
        assertEquals("", r.slot(ALICE, "TOOLS").orElseThrow());
        assertEquals("# SOUL\n\nbe helpful\nbe concise\n\n# HEARTBEAT\n\n[ ] check inbox",
                ContextSlots.build(null, r.slots(ALICE)));
        assertEquals(Map.of(), r.slots(BOB));
        assertThrows(Invalid.class, () -> r.setSlot(ALICE, "a b", "x"));
    }

    @Test
    default void t17TheEntrypointShowsTheBanksMostImportantActiveMemories() {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "Top priority", 0.9));
        r.save(memory("b", ALICE, "Lower priority", 0.3));
        r.save(memory("c", ALICE, "Gone", 0.95));
        r.save(memory("d", BOB, "Bob's", 1.0));
        r.archive("c", "old");
        String text = Entrypoint.render("", ALICE.bankId(), clock().instant(), r.top(ALICE, 0, false, false));
        assertTrue(text.contains("Memory Entrypoint"));
        assertTrue(text.indexOf("Top priority") < text.indexOf("Lower priority"));
        assertFalse(text.contains("Gone") || text.contains("Bob's"));
        assertEquals(3, r.top(ALICE, 0, true, false).size());
        assertEquals(1, r.top(ALICE, 1, false, false).size());
        assertTrue(Entrypoint.render("", "user:nobody", clock().instant(), r.top(new Bank("user", "nobody"), 0, false,
                false)).endsWith("_No memories yet._\n"));
    }
}
