package dev.engram.entries;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases of erasure, which every {@link Store} passes beside {@link StoreContract}: the entry's
 * content and meta leave the live entries and every journal record, which keep their seq and hashes, and an
 * erasure record says who erased and why.
 */
public abstract class ErasureContract {

    protected static final Scope USER = new Scope("user");
    private static final Erasure BY_OPERATOR = new Erasure("operator", "ticket 118");

    /** A new, empty store. */
    protected abstract Store newStore();

    static Entry entry(String name, String content) {
        return Entry.draft(USER, name, content, Map.of("description", "about " + name));
    }

    /** The whole journal; a store of entries alone holds only their records. */
    static List<Change> all(Store s) {
        return s.journal(0, 0).stream().map(Change.class::cast).toList();
    }

    @Test
    void erasureBlanksEveryRecordOfTheEntryAndAppendsAnErasureRecord() {
        Store s = newStore();
        Change v1 = s.put(entry("home", "Lives in Bristol."), PutOptions.NONE.session("s1")).change();
        Change other = s.put(entry("style", "Short answers."), PutOptions.NONE).change();
        Change v2 = s.put(entry("home", "Lives in Leeds."), PutOptions.NONE.basedOn(Hash.of("something else"))).change();

        Change erasure = s.erase(USER, "home", BY_OPERATOR);

        assertEquals(4, erasure.seq());
        assertTrue(erasure.isErasure());
        assertEquals(Optional.of(BY_OPERATOR), erasure.erasure());
        assertTrue(erasure.entry().deleted(), "a reader replaying the journal removes the entry");
        assertEquals("", erasure.entry().content());
        assertEquals("", erasure.entry().hash());
        assertEquals(v2.entry().hash(), erasure.replaced(), "it replaced the live entry");
        assertEquals(v2.entry().hash(), erasure.prev());
        assertThrows(NotFound.class, () -> s.get(USER, "home"));
        assertTrue(s.search(List.of(), "bristol", 0).isEmpty());
        assertTrue(s.search(List.of(), "leeds", 0).isEmpty());

        List<Change> journal = all(s);
        assertEquals(List.of(1L, 2L, 3L, 4L), journal.stream().map(Change::seq).toList(), "gapless");
        for (Change before : List.of(v1, v2)) {
            Change now = journal.get((int) before.seq() - 1);
            assertEquals("", now.entry().content());
            assertEquals(Map.of(), now.entry().meta());
            assertEquals(before.entry().hash(), now.entry().hash(), "the hash stays");
            assertEquals(before.prev(), now.prev());
            assertEquals(before.replaced(), now.replaced());
            assertEquals(before.session(), now.session());
            assertEquals(4, now.erased());
            assertFalse(now.isErasure());
        }
        assertEquals(other, journal.get(1), "other entries' records are untouched");
        assertEquals(erasure, journal.get(3));
        List<LostUpdate> lost = LostUpdates.find(s, 0);
        assertEquals(List.of(3L), lost.stream().map(l -> l.change().seq()).toList(),
                "the lost-update audit still works on erased records, and the erasure is none");
    }

    @Test
    void erasureOfAForgottenEntryBlanksItsTombstoneToo() {
        Store s = newStore();
        s.put(entry("home", "Lives in Bristol."), PutOptions.NONE);
        Change tombstone = s.forget(USER, "home", PutOptions.NONE).change();
        Change erasure = s.erase(USER, "home", BY_OPERATOR);
        assertEquals("", erasure.replaced(), "nothing was live");
        Change blank = all(s).get(1);
        assertTrue(blank.entry().deleted());
        assertEquals("", blank.entry().content());
        assertEquals(tombstone.entry().hash(), blank.entry().hash());
        assertEquals(3, blank.erased());
    }

    @Test
    void erasureOfAnEntryNeverHeldIsNotFoundAndWritesNothing() {
        Store s = newStore();
        s.put(entry("home", "Lives in Bristol."), PutOptions.NONE);
        assertThrows(NotFound.class, () -> s.erase(USER, "never", BY_OPERATOR));
        assertThrows(NotFound.class, () -> s.erase(new Scope("project"), "home", BY_OPERATOR));
        assertEquals(1, all(s).size());
        assertEquals("Lives in Bristol.", all(s).get(0).entry().content());
    }

    @Test
    void erasingAgainWithNothingLeftAnswersTheLastErasureAndWritesNothing() {
        Store s = newStore();
        s.put(entry("home", "Lives in Bristol."), PutOptions.NONE);
        Change first = s.erase(USER, "home", BY_OPERATOR);
        Change again = s.erase(USER, "home", new Erasure("someone-else", "retry"));
        assertEquals(first, again);
        assertEquals(2, all(s).size());
    }

    @Test
    void anEntryWrittenAfterAnErasureIsNewAndAnotherErasureBlanksOnlyIt() {
        Store s = newStore();
        s.put(entry("home", "Lives in Bristol."), PutOptions.NONE);
        Change first = s.erase(USER, "home", BY_OPERATOR);
        Change again = s.put(entry("home", "Lives in York."), PutOptions.NONE).change();
        assertEquals("", again.replaced(), "the erasure left no entry");
        assertEquals("Lives in York.", s.get(USER, "home").content());
        Change second = s.erase(USER, "home", new Erasure("", ""));
        assertEquals(4, second.seq());
        List<Change> journal = all(s);
        assertEquals(2, journal.get(0).erased(), "the first erasure's mark stays");
        assertEquals(first, journal.get(1), "an erasure record is never blanked");
        assertEquals(4, journal.get(2).erased());
        assertEquals(Optional.of(new Erasure("", "")), second.erasure());
    }

    @Test
    void aRetryOfAnErasedWriteIsAnsweredWithTheBlankRecordAndWritesNothing() {
        Store s = newStore();
        IdempotencyKey k = IdempotencyKey.of("", "k-erased", Hash.of("put home")).reply("Saved user/home.");
        s.put(entry("home", "Lives in Bristol."), PutOptions.NONE.idempotent(k));
        s.erase(USER, "home", BY_OPERATOR);
        Replayed again = assertInstanceOf(Replayed.class, s.put(entry("home", "Lives in Bristol."), PutOptions.NONE.idempotent(k)));
        assertEquals("", again.first().change().entry().content(), "the retry does not bring the content back");
        assertEquals(2, again.first().change().erased());
        assertEquals("", again.first().reply(), "the reply was erased with the record");
        assertEquals(2, all(s).size());
        assertThrows(NotFound.class, () -> s.get(USER, "home"));
    }
}
