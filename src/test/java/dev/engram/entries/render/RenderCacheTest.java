package dev.engram.entries.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Change;
import dev.engram.entries.EntriesStamp;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.entries.InMemoryStore;
import dev.engram.entries.Listing;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replay;
import dev.engram.entries.Store;
import dev.engram.entries.Written;
import dev.engram.kernel.Budget;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Scope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Kept renders: answered while the store's stamp holds, made again as soon as it moves, never past their bound. */
class RenderCacheTest {

    private static final Scope USER = new Scope("user");
    private static final Scope PROJECT = new Scope("project");

    /** A store that counts its listings, so a test can tell a kept render from one made again. */
    private static final class Counted implements Store {

        final InMemoryStore inner;
        boolean tellsStamp = true;
        int listings;

        Counted(InMemoryStore inner) {
            this.inner = inner;
        }

        @Override
        public Listing listing(List<Scope> scopes) {
            listings++;
            Listing l = inner.listing(scopes);
            return tellsStamp ? l : new Listing(l.lists(), l.maxEntryBytes(), l.exists());
        }

        @Override
        public Optional<EntriesStamp> stamp() {
            return tellsStamp ? inner.stamp() : Optional.empty();
        }

        @Override
        public String id() {
            return inner.id();
        }

        @Override
        public Entry get(Scope scope, String name) {
            return inner.get(scope, name);
        }

        @Override
        public List<Entry> list(Scope scope) {
            return inner.list(scope);
        }

        @Override
        public Written put(Entry entry, PutOptions options) {
            return inner.put(entry, options);
        }

        @Override
        public Written forget(Scope scope, String name, PutOptions options) {
            return inner.forget(scope, name, options);
        }

        @Override
        public Optional<Replay> replay(IdempotencyKey key) {
            return inner.replay(key);
        }

        @Override
        public Change erase(Scope scope, String name, Erasure erasure) {
            return inner.erase(scope, name, erasure);
        }

        @Override
        public List<Entry> search(List<Scope> scopes, String query, int limit) {
            return inner.search(scopes, query, limit);
        }

        @Override
        public List<JournalRecord> journal(long after, int limit) {
            return inner.journal(after, limit);
        }

        @Override
        public int maxEntryBytes() {
            return inner.maxEntryBytes();
        }
    }

    private static Counted store(String id) {
        Counted s = new Counted(new InMemoryStore(id, 4096));
        write(s, USER, "style", "Short answers.\n");
        write(s, PROJECT, "build", "Run make check.\n");
        return s;
    }

    private static void write(Store s, Scope scope, String name, String content) {
        s.put(Entry.draft(scope, name, content, Map.of()), PutOptions.NONE);
    }

    private static byte[] fresh(Store s, List<Scope> scopes, RenderOptions options) {
        return new RenderCache(0).render(s, scopes, options).utf8();
    }

    @Test
    void aRenderIsKeptWhileTheStoreIsUnchangedAndIsTheBytesOfARenderMadeNow() {
        Counted s = store("kept");
        RenderCache cache = new RenderCache(1 << 20);
        RenderCache.Made first = cache.render(s, List.of(USER), RenderOptions.DEFAULT);
        RenderCache.Made second = cache.render(s, List.of(USER), RenderOptions.DEFAULT);
        assertSame(first, second);
        assertEquals(1, s.listings, "the second render read the stamp, not the entries");
        assertArrayEquals(Render.render(s, List.of(USER), RenderOptions.DEFAULT).block()
                .getBytes(StandardCharsets.UTF_8), second.utf8());
        assertEquals(first.block(), new String(first.utf8(), StandardCharsets.UTF_8));
    }

    @Test
    void everyChangeOfAnEntryIsInTheNextRender() {
        Counted s = store("moves");
        RenderCache cache = new RenderCache(1 << 20);
        List<Scope> scopes = List.of(USER, PROJECT);
        cache.render(s, scopes, RenderOptions.DEFAULT);

        write(s, USER, "tz", "Europe/London\n");
        byte[] afterPut = cache.render(s, scopes, RenderOptions.DEFAULT).utf8();
        assertTrue(new String(afterPut, StandardCharsets.UTF_8).contains("Europe/London"));
        assertArrayEquals(fresh(s.inner, scopes, RenderOptions.DEFAULT), afterPut);

        s.forget(USER, "tz", PutOptions.NONE);
        byte[] afterForget = cache.render(s, scopes, RenderOptions.DEFAULT).utf8();
        assertFalse(new String(afterForget, StandardCharsets.UTF_8).contains("Europe/London"));

        s.erase(PROJECT, "build", new Erasure("dpo", "request 12"));
        byte[] afterErase = cache.render(s, scopes, RenderOptions.DEFAULT).utf8();
        assertFalse(new String(afterErase, StandardCharsets.UTF_8).contains("make check"));
        assertArrayEquals(fresh(s.inner, scopes, RenderOptions.DEFAULT), afterErase);
        assertEquals(4, s.listings, "one listing for each state of the store");
    }

    @Test
    void scopesAndBoundsAreKeptApart() {
        Counted s = store("apart");
        RenderCache cache = new RenderCache(1 << 20);
        String user = cache.render(s, List.of(USER), RenderOptions.DEFAULT).block();
        String all = cache.render(s, List.of(), RenderOptions.DEFAULT).block();
        String small = cache.render(s, List.of(USER, PROJECT), RenderOptions.DEFAULT.maxTotalBytes(120)).block();
        String capped = cache.render(s, List.of(USER, PROJECT), RenderOptions.DEFAULT.scopeCap(PROJECT, 1)).block();
        assertNotEquals(user, all);
        assertTrue(all.contains("make check"), "no scopes: every scope the store holds");
        assertTrue(small.getBytes(StandardCharsets.UTF_8).length <= 120);
        assertFalse(capped.contains("make check"));
        assertEquals(4, cache.size());
        assertEquals(all, cache.render(s, List.of(), RenderOptions.DEFAULT).block());
        assertEquals(4, s.listings);
    }

    @Test
    void aBoundTooSmallIsRefusedEveryTimeAndNothingIsKept() {
        Counted s = store("refused");
        RenderCache cache = new RenderCache(1 << 20);
        RenderOptions tiny = RenderOptions.DEFAULT.maxTotalBytes(5);
        assertThrows(Budget.class, () -> cache.render(s, List.of(USER), tiny));
        assertThrows(Budget.class, () -> cache.render(s, List.of(USER), tiny));
        assertEquals(0, cache.size());
    }

    @Test
    void aStoreThatCannotTellItsStampIsRenderedEveryTime() {
        Counted s = store("untold");
        s.tellsStamp = false;
        RenderCache cache = new RenderCache(1 << 20);
        cache.render(s, List.of(USER), RenderOptions.DEFAULT);
        cache.render(s, List.of(USER), RenderOptions.DEFAULT);
        assertEquals(2, s.listings);
        assertEquals(0, cache.size());
    }

    @Test
    void pastItsBoundEveryKeptRenderIsLetGo() {
        Counted a = store("bound-a");
        Counted b = store("bound-b");
        RenderCache.Made one = new RenderCache(0).render(a.inner, List.of(USER), RenderOptions.DEFAULT);
        long room = 2L * one.utf8().length + 256;
        RenderCache cache = new RenderCache(room + room / 2);
        cache.render(a, List.of(USER), RenderOptions.DEFAULT);
        assertEquals(1, cache.size());
        cache.render(b, List.of(USER), RenderOptions.DEFAULT);
        assertEquals(1, cache.size(), "the second did not fit beside the first: the first was let go");
        cache.render(a, List.of(USER), RenderOptions.DEFAULT);
        assertEquals(2, a.listings, "a's render was made again");

        RenderCache none = new RenderCache(0);
        none.render(a, List.of(USER), RenderOptions.DEFAULT);
        assertEquals(0, none.size());
    }
}
