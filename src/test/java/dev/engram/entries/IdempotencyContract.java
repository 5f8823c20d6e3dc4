package dev.engram.entries;

import dev.engram.kernel.Conflict;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conformance cases of idempotency keys, which every {@link Store} passes beside {@link StoreContract}: a
 * write under a key is made once, a retry is answered with the first record, a key with another request is
 * refused, keys of two callers never meet, and a refused write records no key.
 */
public abstract class IdempotencyContract {

    protected static final Scope USER = new Scope("user");

    /** A new, empty store with the content bound {@code maxEntryBytes}. */
    protected abstract Store newStore(int maxEntryBytes);

    /** The same store as a new process would open it, or null when the store does not outlive its object. */
    protected abstract Store reopen(Store store);

    protected Store newStore() {
        return newStore(EntryRules.DEFAULT_MAX_ENTRY_BYTES);
    }

    static IdempotencyKey key(String key, String request) {
        return IdempotencyKey.of("", key, Hash.of(request));
    }

    static PutOptions under(IdempotencyKey key) {
        return PutOptions.NONE.idempotent(key);
    }

    static Entry entry(String name, String content) {
        return Entry.draft(USER, name, content, Map.of("description", "d"));
    }

    /** What a write under a key answered: the record it made, or the one it replayed. */
    static Change answer(Callable<Written> write) throws Exception {
        return write.call().change();
    }

    @Test
    void aRetryIsAnsweredWithTheFirstRecordAndWritesNothing() {
        Store s = newStore();
        IdempotencyKey k = key("k-1", "put style v1");
        Change first = s.put(entry("style", "v1"), under(k)).change();
        s.put(entry("style", "v2"), PutOptions.NONE);
        Replayed again = assertInstanceOf(Replayed.class, s.put(entry("style", "v1"), under(k)));
        assertEquals(first, again.first().change(), "the first record, not what the entry holds now");
        assertEquals(2, s.journal(0, 0).size(), "the retry wrote nothing");
        assertEquals("v2", s.get(USER, "style").content());
        assertEquals(Optional.of(new Replay(first, "")), s.replay(k));
    }

    @Test
    void aRetryIsAnsweredBeforeItsPreconditionIsChecked() {
        Store s = newStore();
        IdempotencyKey k = key("create-once", "create");
        Change first = s.put(entry("style", "v1"), under(k).ifVersion("")).change();
        Replayed again = assertInstanceOf(Replayed.class, s.put(entry("style", "v1"), under(k).ifVersion("")));
        assertEquals(first, again.first().change(), "If-None-Match no longer holds, and the retry is answered");
    }

    @Test
    void aKeySentWithAnotherRequestIsRefusedAndWritesNothing() {
        Store s = newStore();
        s.put(entry("style", "v1"), under(key("k-1", "put style v1")));
        KeyReused reused = assertThrows(KeyReused.class,
                () -> s.put(entry("style", "v2"), under(key("k-1", "put style v2"))));
        assertEquals("k-1", reused.key());
        assertThrows(KeyReused.class, () -> s.forget(USER, "style", under(key("k-1", "forget style"))));
        assertThrows(KeyReused.class, () -> s.replay(key("k-1", "put style v2")));
        assertEquals(1, s.journal(0, 0).size());
        assertEquals("v1", s.get(USER, "style").content());
    }

    @Test
    void keysOfTwoCallersNeverMeet() {
        Store s = newStore();
        Change alice = s.put(entry("a", "from alice"), under(new IdempotencyKey("alice", "k", Hash.of("a"), ""))).change();
        Change bob = s.put(entry("b", "from bob"), under(new IdempotencyKey("bob", "k", Hash.of("b"), ""))).change();
        assertEquals(List.of(1L, 2L), List.of(alice.seq(), bob.seq()));
    }

    @Test
    void aWriteRefusedForItsSizeRecordsNoKey() {
        Store s = newStore(16);
        IdempotencyKey k = key("k-big", "too big");
        assertThrows(TooLarge.class, () -> s.put(entry("note", "x".repeat(17)), under(k)));
        assertEquals(Optional.empty(), s.replay(k));
        Change fixed = s.put(entry("note", "x".repeat(16)), under(key("k-big", "fixed"))).change();
        assertEquals(1, fixed.seq(), "the retry after the fix is a new attempt under the same key");
    }

    @Test
    void aWriteRefusedForItsPreconditionRecordsNoKey() {
        Store s = newStore();
        Change v1 = s.put(entry("style", "v1"), PutOptions.NONE).change();
        IdempotencyKey k = key("k-if", "v2 on v1");
        assertThrows(Conflict.class, () -> s.put(entry("style", "v2"), under(k).ifVersion(Hash.of("other"))));
        assertEquals(Optional.empty(), s.replay(k));
        Change landed = s.put(entry("style", "v2"), under(k).ifVersion(v1.entry().version())).change();
        assertEquals(2, landed.seq());
    }

    @Test
    void anInvalidWriteRecordsNoKey() {
        Store s = newStore();
        IdempotencyKey k = key("k-bad", "bad name");
        assertThrows(Invalid.class, () -> s.put(Entry.draft(USER, "Bad Name", "x", Map.of()), under(k)));
        assertEquals(Optional.empty(), s.replay(k));
        assertTrue(s.journal(0, 0).isEmpty());
    }

    @Test
    void aForgetUnderAKeyIsAnsweredOnRetryInsteadOfNotFound() {
        Store s = newStore();
        s.put(entry("style", "v1"), PutOptions.NONE);
        IdempotencyKey k = key("k-forget", "forget style");
        Change tombstone = s.forget(USER, "style", under(k)).change();
        Replayed again = assertInstanceOf(Replayed.class, s.forget(USER, "style", under(k)));
        assertEquals(tombstone, again.first().change());
        assertEquals(2, s.journal(0, 0).size());
        IdempotencyKey missing = key("k-missing", "forget nothing");
        assertThrows(NotFound.class, () -> s.forget(USER, "nothing", under(missing)));
        assertEquals(Optional.empty(), s.replay(missing), "a refused forget records no key");
    }

    @Test
    void aPatchUnderAKeyIsAnsweredOnRetryThoughItsAnchorIsGone() {
        Store s = newStore();
        s.put(entry("style", "Short answers."), PutOptions.NONE);
        IdempotencyKey k = key("k-patch", "Short -> Brief");
        Patch patch = new Patch("Short", "Brief");
        Change first = patch.applyTo(s, USER, "style", under(k), Patch.DEFAULT_DEADLINE, e -> "patched " + e.size()).change();
        Replayed again = assertInstanceOf(Replayed.class, patch.applyTo(s, USER, "style", under(k), Patch.DEFAULT_DEADLINE, e -> "patched " + e.size()));
        assertEquals(first, again.first().change());
        assertEquals("patched 14", again.first().reply(), "the reply recorded with the first write");
        assertEquals(2, s.journal(0, 0).size());
    }

    @Test
    void theReplyIsKeptWithTheKey() {
        Store s = newStore();
        IdempotencyKey k = key("k-reply", "save").reply("Saved user/style: created.");
        s.put(entry("style", "v1"), under(k));
        assertEquals("Saved user/style: created.", s.replay(k).orElseThrow().reply());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "has space", "tab\tkey", "naïve", "\u0000"})
    void aKeyThatIsNotVisibleAsciiIsInvalid(String bad) {
        Invalid e = assertThrows(Invalid.class, () -> IdempotencyKey.of("", bad, "fp"));
        assertEquals("idempotency-key-format", e.rule());
        assertEquals(IdempotencyKey.HEADER, e.field());
    }

    @Test
    void aKeyOf255CharactersFitsAndOneMoreIsInvalid() {
        Store s = newStore();
        String longest = "k".repeat(IdempotencyKey.MAX_LENGTH);
        s.put(entry("style", "v1"), under(key(longest, "r")));
        assertInstanceOf(Replayed.class, s.put(entry("style", "v1"), under(key(longest, "r"))));
        assertThrows(Invalid.class, () -> key(longest + "k", "r"));
    }

    @Test
    void concurrentWritesUnderOneKeyWriteOnceAndAllGetTheFirstRecord() throws Exception {
        Store s = newStore();
        IdempotencyKey k = key("k-race", "put race");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Change>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return answer(() -> s.put(entry("race", "once"), under(k)));
                }));
            }
            go.countDown();
            for (Future<Change> f : answers) {
                assertEquals(1, f.get().seq(), "every request is answered with the one record");
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, s.journal(0, 0).size(), "exactly one write");
    }

    @Test
    void aKeyOutlivesTheStoreObject() {
        Store s = newStore();
        IdempotencyKey k = key("k-kept", "put");
        Change first = s.put(entry("style", "v1"), under(k)).change();
        Store reopened = reopen(s);
        Assumptions.assumeTrue(reopened != null, "this store does not outlive its object");
        Replayed again = assertInstanceOf(Replayed.class, reopened.put(entry("style", "v1"), under(k)));
        assertEquals(first, again.first().change());
    }
}
