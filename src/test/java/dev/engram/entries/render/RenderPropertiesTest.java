package dev.engram.entries.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Budget;
import dev.engram.entries.Entry;
import dev.engram.entries.InMemoryStore;
import dev.engram.entries.PutOptions;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The render's invariants over random stores and bounds. */
class RenderPropertiesTest {

    static final int LIMIT = 700;
    static final List<Scope> SCOPES = List.of(new Scope("user"), new Scope("project"), new Scope("environment"));

    /** A random store and the render's inputs. */
    record World(List<Entry> entries, List<Scope> scopes, int bound, Map<Scope, Integer> caps) {

        Store store() {
            Store s = new InMemoryStore("prop", LIMIT);
            for (Entry e : entries) {
                s.put(e, PutOptions.NONE);
            }
            return s;
        }

        RenderOptions options() {
            RenderOptions o = RenderOptions.DEFAULT.maxTotalBytes(bound);
            for (Map.Entry<Scope, Integer> c : caps.entrySet()) {
                o = o.scopeCap(c.getKey(), c.getValue());
            }
            return o;
        }
    }

    @Provide
    Arbitrary<World> worlds() {
        Arbitrary<String> text = Arbitraries.of("a", "b", "c", "d", "e", " ", "\n", ".", "—", "é", "日", "😀")
                .list().ofMinSize(1).ofMaxSize(180).map(l -> String.join("", l))
                .map(s -> s.strip().isEmpty() ? "x" : s);
        Arbitrary<String> description = Arbitraries.strings().withChars("abcdef —é").ofMaxLength(30)
                .map(String::strip);
        Arbitrary<Entry> entry = Combinators.combine(Arbitraries.of(SCOPES), Arbitraries.integers().between(0, 40),
                text, description).as((scope, n, content, d) -> Entry.draft(scope, "note-" + n, content,
                        d.isEmpty() ? Map.of() : Map.of("description", d)));
        Arbitrary<List<Scope>> scopes = Arbitraries.of(SCOPES).list().ofMaxSize(3).uniqueElements();
        Arbitrary<Map<Scope, Integer>> caps = Arbitraries.maps(Arbitraries.of(SCOPES),
                Arbitraries.integers().between(0, 1500)).ofMaxSize(2);
        return Combinators.combine(entry.list().ofMaxSize(40), scopes, Arbitraries.integers().between(-5, 5000),
                caps).as(World::new);
    }

    @Property(tries = 400)
    void neverOverTheBoundAndTheSummaryTellsTheTruth(@ForAll("worlds") World w) {
        Store store = w.store();
        Rendered r;
        try {
            r = Render.render(store, w.scopes(), w.options());
        } catch (Budget b) {
            assertTrue(b.needed() > w.bound(), "refused a bound it could meet: " + b.getMessage());
            Rendered atFloor = Render.render(store, w.scopes(), w.options().maxTotalBytes(b.needed()));
            assertTrue(Utf8.length(atFloor.block()) <= b.needed(), "the floor it names renders within it");
            return;
        }
        String block = r.block();
        int size = Utf8.length(block);
        assertTrue(size <= w.bound(), size + " bytes over a " + w.bound() + " byte bound");
        String width = "%" + Integer.toString(w.bound()).length() + "d";
        assertTrue(block.endsWith("Block: " + size + " of " + w.bound() + " bytes (" + String.format(width,
                w.bound() - size) + " free). Entry limit: " + LIMIT + " bytes."), block);
    }

    @Property(tries = 300)
    void partsJoinToTheBlockAndRenderingTwiceGivesTheSameBytes(@ForAll("worlds") World w) {
        Store store = w.store();
        try {
            Rendered r = Render.render(store, w.scopes(), w.options());
            assertEquals(Part.join(r.parts()), r.block());
            assertEquals(r, Render.render(store, w.scopes(), w.options()));
            Set<String> ids = new HashSet<>();
            for (Part p : r.parts()) {
                assertTrue(ids.add(p.id()), "part " + p.id() + " twice");
            }
            assertEquals(Part.TITLE_ID, r.parts().get(0).id());
            assertEquals(Part.SUMMARY_ID, r.parts().get(r.parts().size() - 1).id());
        } catch (Budget refused) {
            assertTrue(refused.needed() > w.bound());
        }
    }

    @Property(tries = 300)
    void everyLiveEntryIsShownOrOmittedOnceWithTheHashOfWhatIsShown(@ForAll("worlds") World w) {
        Store store = w.store();
        Rendered r;
        try {
            r = Render.render(store, w.scopes(), w.options());
        } catch (Budget refused) {
            return;
        }
        Map<String, Entry> live = new HashMap<>();
        for (Scope scope : w.scopes()) {
            for (Entry e : store.list(scope)) {
                live.put(scope + "/" + e.name(), e);
            }
        }
        Map<String, String> parts = new HashMap<>();
        r.parts().forEach(p -> parts.put(p.id(), p.text()));
        List<String> named = new ArrayList<>();
        for (ManifestEntry m : r.manifest().entries()) {
            Entry e = live.get(m.scope() + "/" + m.name());
            assertEquals(e.hash(), m.hash());
            assertEquals(e.size(), m.bytes());
            assertEquals("", m.reason());
            String shown = parts.get(Part.entryId(m.scope(), m.name()));
            String content = e.content().endsWith("\n") ? e.content().substring(0, e.content().length() - 1)
                    : e.content();
            assertTrue(shown.endsWith("\n\n" + content), "the part shows the content");
            named.add(m.scope() + "/" + m.name());
        }
        for (ManifestEntry m : r.manifest().omitted()) {
            assertEquals(live.get(m.scope() + "/" + m.name()).hash(), m.hash());
            assertEquals(ManifestEntry.OMIT_BUDGET, m.reason());
            assertTrue(!parts.containsKey(Part.entryId(m.scope(), m.name())));
            named.add(m.scope() + "/" + m.name());
        }
        assertEquals(live.keySet(), new HashSet<>(named));
        assertEquals(live.size(), named.size(), "no entry named twice");
    }

    @Property(tries = 300)
    void aCappedScopeKeepsInsideItsCap(@ForAll("worlds") World w) {
        Rendered r;
        try {
            r = Render.render(w.store(), w.scopes(), w.options());
        } catch (Budget refused) {
            return;
        }
        for (Map.Entry<Scope, Integer> cap : w.caps().entrySet()) {
            int spent = 0;
            for (Part p : r.parts()) {
                if (p.id().startsWith(Part.scopeId(cap.getKey()) + "/")
                        || p.id().equals(Part.omittedId(cap.getKey()))) {
                    spent += 2 + Utf8.length(p.text());
                }
            }
            assertTrue(spent <= cap.getValue(), cap.getKey() + " takes " + spent + " over its cap " + cap.getValue());
        }
    }

    @Property(tries = 200)
    void deltasFoldBackToTheManifestTheyRecord(@ForAll("worlds") World a, @ForAll("worlds") World b) {
        Manifest before = manifestOf(a);
        Manifest after = manifestOf(b);
        String record = after.recordSince(before);
        assertEquals(after.hash(), Manifest.apply(before, record).hash());
        assertTrue(Utf8.length(record) <= Utf8.length(after.record()), "never larger than the whole record");
        ManifestFold fold = new ManifestFold();
        fold.apply(before.record());
        fold.apply(fold.record(after));
        assertEquals(after, fold.manifest());
    }

    private static Manifest manifestOf(World w) {
        try {
            return Render.render(w.store(), w.scopes(), w.options()).manifest();
        } catch (Budget refused) {
            return Manifest.EMPTY;
        }
    }

    @Property(tries = 50)
    void theBudgetFloorIsExact(@ForAll("worlds") World w) {
        Store store = w.store();
        Budget b = assertThrows(Budget.class, () -> Render.render(store, w.scopes(), w.options().maxTotalBytes(1)));
        int floor = b.needed();
        Render.render(store, w.scopes(), w.options().maxTotalBytes(floor));
        if (floor > 1) {
            assertThrows(Budget.class, () -> Render.render(store, w.scopes(), w.options().maxTotalBytes(floor - 1)));
        }
    }
}
