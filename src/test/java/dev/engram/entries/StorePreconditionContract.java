package dev.engram.entries;

import static dev.engram.entries.StoreCases.USER;
import static dev.engram.entries.StoreCases.all;
import static dev.engram.entries.StoreCases.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Conflict;
import dev.engram.kernel.NotFound;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases of a {@link Store}'s preconditions and forgetting (part of {@link StoreContract}): IfHash
 * (here IfVersion, which covers meta too) and Forget.
 */
public interface StorePreconditionContract extends StoreUnderTest {

    // ---------------------------------------------------------------------------------------------- IfVersion

    @Test
    default void ifVersionEmptyCreatesOnlyWhenAbsent() {
        Store s = newStore();
        Change c = s.put(entry(USER, "a", "one"), PutOptions.NONE.ifVersion("")).change();
        assertEquals("", c.prev());
        Conflict e = assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion("")));
        assertEquals("", e.want());
        assertEquals(c.entry().version(), e.have());
        assertEquals("one", s.get(USER, "a").content());
        assertEquals(1, all(s).size());
    }

    @Test
    default void ifVersionWritesOnlyOnTheExpectedState() {
        Store s = newStore();
        Entry first = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry();
        String v1 = first.version();
        Change c2 = s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(v1)).change();
        assertEquals(first.hash(), c2.prev(), "the journal chains content hashes");
        assertEquals(first.hash(), c2.replaced());
        Conflict e = assertThrows(Conflict.class,
                () -> s.put(entry(USER, "a", "three"), PutOptions.NONE.ifVersion(v1)));
        assertEquals(v1, e.want());
        assertEquals(c2.entry().version(), e.have());
        Conflict missing = assertThrows(Conflict.class,
                () -> s.put(entry(USER, "b", "new"), PutOptions.NONE.ifVersion(v1)));
        assertEquals("", missing.have());
        assertEquals("two", s.get(USER, "a").content());
        assertEquals(2, all(s).size(), "a failed precondition writes nothing");
        assertEquals(2, all(s).get(1).seq());
    }

    @Test
    default void theVersionCoversMetaSoAMetaOnlyChangeFailsAnOlderPrecondition() {
        Store s = newStore();
        Map<String, String> before = Map.of("description", "Süß — ✓", "type", "feedback");
        Map<String, String> after = Map.of("description", "Süß — ✓", "type", "rule", "a-first", "x");
        Entry first = s.put(entry(USER, "a", "one", before), PutOptions.NONE).change().entry();
        Entry second = s.put(entry(USER, "a", "one", after), PutOptions.NONE).change().entry();
        assertEquals(first.hash(), second.hash(), "the content hash is the content's alone");
        assertFalse(first.version().equals(second.version()), "the version moves with the meta");
        assertEquals(second.version(), s.get(USER, "a").version());
        assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two", before), PutOptions.NONE.ifVersion(
                first.version())));
        assertThrows(Conflict.class, () -> s.forget(USER, "a", PutOptions.NONE.ifVersion(first.version())));
        assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(first.hash())),
                "a content hash is not a version");
        assertEquals(after, s.get(USER, "a").meta());
        s.put(entry(USER, "a", "two", after), PutOptions.NONE.ifVersion(second.version()));
        assertEquals("two", s.get(USER, "a").content());
    }

    @Test
    default void aPatchKeepsAMetaChangeThatLandedBetweenItsReadAndItsWrite() {
        Store s = newStore();
        s.put(entry(USER, "a", "Short answers.", Map.of("description", "How")), PutOptions.NONE);
        Store racing = new RacingStore(s, () -> s.put(entry(USER, "a", "Short answers.",
                Map.of("description", "How to answer")), PutOptions.NONE.session("other")));
        new Patch("Short", "Brief").applyTo(racing, USER, "a", PutOptions.NONE, java.time.Duration.ofSeconds(5));
        assertEquals("Brief answers.", s.get(USER, "a").content());
        assertEquals(Map.of("description", "How to answer"), s.get(USER, "a").meta(), "the other session's meta stays");
    }

    @Test
    default void basedOnRecordsTheBaseWithoutRefusing() {
        Store s = newStore();
        String h1 = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        Change c = s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(h1)).change();
        assertEquals(h1, c.prev());
        assertEquals(Hash.of("two"), c.replaced());
        assertEquals("three", s.get(USER, "a").content());
    }

    @Test
    default void aPatchWithoutAPreconditionLandsHoweverOftenItMeetsAConcurrentWrite() {
        Store s = newStore();
        s.put(entry(USER, "log", "alpha: todo\n"), PutOptions.NONE);
        Store racing = new RacingStore(s, 12, () -> s.put(entry(USER, "log", s.get(USER, "log").content() + "x\n"),
                PutOptions.NONE.session("other")));
        new Patch("alpha: todo", "alpha: done").applyTo(racing, USER, "log", PutOptions.NONE, Patch.DEFAULT_DEADLINE);
        assertEquals("alpha: done\n" + "x\n".repeat(12), s.get(USER, "log").content(), "every write is kept");
    }

    /**
     * A write refused after it took the store's seq (a failed precondition of a put or a forget, a forget of no live
     * entry) gives the seq back: the next write takes the one after the last record, so the journal stays gapless.
     */
    @Test
    default void aRefusedWriteGivesItsSeqBack() {
        Store s = newStore();
        Entry first = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry();
        String stale = "v:" + "0".repeat(64);
        assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(stale)));
        assertThrows(Conflict.class, () -> s.forget(USER, "a", PutOptions.NONE.ifVersion(stale)));
        assertThrows(NotFound.class, () -> s.forget(USER, "missing", PutOptions.NONE));
        assertEquals(2, s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(first.version())).change().seq());
        assertEquals(3, s.forget(USER, "a", PutOptions.NONE).change().seq());
        assertEquals(List.of(1L, 2L, 3L), all(s).stream().map(Change::seq).toList());
    }

    // ---------------------------------------------------------------------------------------------- Forget

    @Test
    default void forgetWritesATombstoneThatKeepsTheLastContent() {
        Store s = newStore();
        Change put = s.put(entry(USER, "editor", "Uses neovim.\n", Map.of("description", "Editor")), PutOptions.NONE).change();
        Change gone = s.forget(USER, "editor", PutOptions.NONE.session("slack-7f3a")).change();
        assertEquals(2, gone.seq());
        assertTrue(gone.entry().deleted());
        assertEquals("Uses neovim.\n", gone.entry().content());
        assertEquals(Map.of("description", "Editor"), gone.entry().meta());
        assertEquals(put.entry().hash(), gone.entry().hash());
        assertEquals(put.entry().hash(), gone.prev());
        assertEquals(put.entry().hash(), gone.replaced());
        assertEquals("slack-7f3a", gone.session());
        assertThrows(NotFound.class, () -> s.get(USER, "editor"));
        assertTrue(s.list(USER).isEmpty());
        assertTrue(all(s).get(1).entry().deleted());

        Change again = s.put(entry(USER, "editor", "Uses helix.\n"), PutOptions.NONE).change();
        assertEquals("", again.replaced(), "a write after a tombstone creates");
    }

    @Test
    default void forgetOfAMissingEntryIsNotFoundAndWritesNothing() {
        Store s = newStore();
        assertThrows(NotFound.class, () -> s.forget(USER, "never", PutOptions.NONE));
        s.put(entry(USER, "a", "one"), PutOptions.NONE);
        s.forget(USER, "a", PutOptions.NONE);
        assertThrows(NotFound.class, () -> s.forget(USER, "a", PutOptions.NONE));
        assertEquals(2, all(s).size());
    }

    @Test
    default void forgetHonoursIfHash() {
        Store s = newStore();
        s.put(entry(USER, "a", "one"), PutOptions.NONE);
        String version = s.get(USER, "a").version();
        Conflict e = assertThrows(Conflict.class, () -> s.forget(USER, "a", PutOptions.NONE.ifVersion(
                Hash.version(Hash.of("zero"), Map.of()))));
        assertEquals(version, e.have());
        assertEquals("one", s.get(USER, "a").content());
        s.forget(USER, "a", PutOptions.NONE.ifVersion(version));
        assertThrows(NotFound.class, () -> s.get(USER, "a"));
    }
}
