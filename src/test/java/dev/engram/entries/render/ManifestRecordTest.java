package dev.engram.entries.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Budget;
import dev.engram.entries.Hash;
import dev.engram.entries.InMemoryStore;
import dev.engram.kernel.Invalid;
import dev.engram.entries.PutOptions;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Manifest records: the hash, the delta and its refusals, the fold, and the render's budget refusal. */
class ManifestRecordTest {

    static final Scope USER = new Scope("user");

    /** n entries of scope user, the first {@code shown} shown and the rest omitted for the budget. */
    static Manifest fixture(int n, int shown) {
        List<ManifestEntry> entries = new ArrayList<>();
        List<ManifestEntry> omitted = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format("fact-%03d", i);
            if (i < shown) {
                entries.add(new ManifestEntry(USER, name, Hash.of(Integer.toString(i)), 40 + i, ""));
            } else {
                omitted.add(new ManifestEntry(USER, name, Hash.of(Integer.toString(i)), 40 + i,
                        ManifestEntry.OMIT_BUDGET));
            }
        }
        return new Manifest(entries, omitted);
    }

    static ManifestEntry patched(ManifestEntry e, String hash) {
        return new ManifestEntry(e.scope(), e.name(), hash, e.bytes() + 1, e.reason());
    }

    static Stream<Arguments> edits() {
        Manifest base = fixture(600, 126);
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("unchanged", (UnaryOperator<Manifest>) m -> m, true));
        cases.add(Arguments.of("patch-shown", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            es.set(60, patched(es.get(60), Hash.of("patched")));
            return new Manifest(es, m.omitted());
        }, true));
        cases.add(Arguments.of("patch-omitted", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> os = new ArrayList<>(m.omitted());
            os.set(300, patched(os.get(300), Hash.of("patched")));
            return new Manifest(m.entries(), os);
        }, true));
        cases.add(Arguments.of("create-at-start", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            es.add(0, new ManifestEntry(USER, "aaa", Hash.of("new"), 3, ""));
            return new Manifest(es, m.omitted());
        }, true));
        cases.add(Arguments.of("forget-in-the-middle", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            es.remove(40);
            return new Manifest(es, m.omitted());
        }, true));
        cases.add(Arguments.of("shown-to-omitted", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            ManifestEntry last = es.remove(es.size() - 1);
            List<ManifestEntry> os = new ArrayList<>(m.omitted());
            os.add(0, new ManifestEntry(last.scope(), last.name(), last.hash(), last.bytes(), "budget"));
            return new Manifest(es, os);
        }, true));
        cases.add(Arguments.of("swap", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            es.set(10, m.entries().get(11));
            es.set(11, m.entries().get(10));
            return new Manifest(es, m.omitted());
        }, true));
        cases.add(Arguments.of("truncated", (UnaryOperator<Manifest>) m -> fixture(3, 3), true));
        cases.add(Arguments.of("emptied", (UnaryOperator<Manifest>) m -> Manifest.EMPTY, false));
        cases.add(Arguments.of("all-new", (UnaryOperator<Manifest>) m -> new Manifest(List.of(
                new ManifestEntry(new Scope("project"), "rule", Hash.of("r"), 1, "")), List.of()), false));
        cases.add(Arguments.of("name-twice", (UnaryOperator<Manifest>) m -> {
            List<ManifestEntry> es = new ArrayList<>(m.entries());
            es.add(es.get(0));
            return new Manifest(es, m.omitted());
        }, false));
        return cases.stream().map(a -> Arguments.of(a.get()[0], base, a.get()[1], a.get()[2]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("edits")
    void recordSinceWritesWhatMovedAndFoldsBack(String name, Manifest base, UnaryOperator<Manifest> edit,
            boolean delta) {
        Manifest next = edit.apply(base);
        String record = next.recordSince(base);
        assertEquals(delta, record.contains("\"base\""), record);
        if (delta) {
            assertTrue(record.length() < base.record().length() / 100, record.length() + " bytes: " + record);
        }
        assertEquals(next.hash(), Manifest.apply(base, record).hash());
    }

    @Test
    void aPatchUnderALargeMemoryIsOneEntry() {
        Manifest base = fixture(600, 126);
        List<ManifestEntry> es = new ArrayList<>(base.entries());
        es.set(60, patched(es.get(60), Hash.of("patched")));
        String record = new Manifest(es, base.omitted()).recordSince(base);
        assertEquals("{\"base\":\"" + base.hash() + "\",\"hash\":\"" + new Manifest(es, base.omitted()).hash()
                + "\",\"entries\":[{\"keep\":60},{\"scope\":\"user\",\"name\":\"fact-060\",\"hash\":\""
                + Hash.of("patched") + "\",\"bytes\":101},{\"keep\":65}],\"omitted\":[{\"keep\":474}]}", record);
    }

    static Stream<Arguments> refusals() {
        String h = fixture(20, 10).hash();
        return Stream.of(
                Arguments.of("not-json", "{", "manifest-record", "not valid JSON"),
                Arguments.of("keep-past-end", "{\"base\":\"" + h + "\",\"hash\":\"x\",\"entries\":[{\"keep\":11}]}",
                        "manifest-record", "keeps 11 entries and 10 are left"),
                Arguments.of("keep-zero", "{\"base\":\"" + h + "\",\"hash\":\"x\",\"entries\":[{\"keep\":0}]}",
                        "manifest-record", "neither a positive keep nor an entry"),
                Arguments.of("keep-and-entry", "{\"base\":\"" + h + "\",\"hash\":\"x\",\"entries\":[{\"keep\":1,"
                        + "\"scope\":\"user\",\"name\":\"a\"}]}", "manifest-record", "both a keep and an entry"),
                Arguments.of("no-name", "{\"base\":\"" + h + "\",\"hash\":\"x\",\"omitted\":[{\"scope\":\"user\","
                        + "\"hash\":\"h\"}]}", "manifest-record", "names no entry"),
                Arguments.of("wrong-hash", "{\"base\":\"" + h + "\",\"hash\":\"sha256:00\",\"entries\":[{\"keep\":10}],"
                        + "\"omitted\":[{\"keep\":10}]}", "manifest-record", "the result hashes"),
                Arguments.of("wrong-base", "{\"base\":\"" + Hash.of("other") + "\",\"hash\":\"x\"}", "manifest-base",
                        "based on"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void applyRefusesWhatItCannotFold(String name, String record, String rule, String says) {
        Invalid e = assertThrows(Invalid.class, () -> Manifest.apply(fixture(20, 10), record));
        assertEquals(rule, e.rule());
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void aWholeRecordIsTheManifestItHoldsWhateverIsInForce() {
        Manifest next = fixture(5, 2);
        assertEquals(next, Manifest.apply(fixture(3, 1), next.record()));
        assertEquals("{\"entries\":[]}", Manifest.EMPTY.record());
    }

    @Test
    void theHashMovesWithOrderOmissionsAndReasons() {
        Manifest m = fixture(4, 2);
        assertEquals(m.hash(), fixture(4, 2).hash());
        assertFalse(m.hash().equals(new Manifest(List.of(m.entries().get(1), m.entries().get(0)), m.omitted()).hash()));
        assertFalse(m.hash().equals(new Manifest(m.entries(), List.of()).hash()));
        List<ManifestEntry> other = new ArrayList<>(m.omitted());
        other.set(0, new ManifestEntry(USER, other.get(0).name(), other.get(0).hash(), other.get(0).bytes(), "block"));
        assertFalse(m.hash().equals(new Manifest(m.entries(), other).hash()));
    }

    @Test
    void aFoldResolvesDeltasOnTheLastEightDistinctManifests() {
        Manifest a = fixture(600, 126);
        Manifest b = new Manifest(List.of(new ManifestEntry(new Scope("billing"), "plan", Hash.of("p"), 10, "")),
                List.of());
        ManifestFold fold = new ManifestFold();
        assertEquals(Manifest.EMPTY, fold.manifest());
        fold.apply(a.record());
        fold.apply(b.recordSince(a));
        Manifest lastA = a;
        for (int i = 0; i < 10; i++) {
            List<ManifestEntry> es = new ArrayList<>(lastA.entries());
            es.set(i, patched(es.get(i), Hash.of("patched-" + i)));
            Manifest nextA = new Manifest(es, lastA.omitted());
            String record = nextA.recordSince(lastA);
            assertTrue(record.contains("\"base\"") && record.length() < a.record().length() / 100);
            Manifest inForce = fold.manifest();
            assertEquals("manifest-base", assertThrows(Invalid.class, () -> Manifest.apply(inForce, record)).rule(),
                    "a plain apply resolves only the manifest in force");
            fold.apply(record);
            assertEquals(nextA, fold.manifest());
            fold.apply(b.recordSince(b));
            assertEquals(b, fold.manifest());
            lastA = nextA;
        }

        ManifestFold g = new ManifestFold();
        g.apply(a.record());
        for (int i = 0; i < ManifestFold.DEPTH; i++) {
            g.apply(fixture(3 + i, 1).record());
        }
        String before = g.manifest().hash();
        Invalid past = assertThrows(Invalid.class, () -> g.apply(new Manifest(a.entries().subList(1, 126),
                a.omitted()).recordSince(a)));
        assertEquals("manifest-base", past.rule());
        assertEquals(before, g.manifest().hash(), "a refused delta leaves the fold as it was");
        g.apply(fixture(3, 1).record());
        Manifest old = fixture(4, 1);
        g.apply(new Manifest(old.entries(), old.omitted().subList(1, 3)).recordSince(old));
    }

    @Test
    void foldRecordChoosesTheSmallestFormAndPrefersTheManifestInForce() {
        Manifest a = fixture(300, 100);
        Manifest b = fixture(5, 5);
        ManifestFold fold = new ManifestFold();
        assertEquals(a.record(), fold.record(a), "an empty fold gives the whole record");
        fold.apply(a.record());
        fold.apply(b.record());
        List<ManifestEntry> es = new ArrayList<>(a.entries());
        es.set(3, patched(es.get(3), Hash.of("x")));
        Manifest nextA = new Manifest(es, a.omitted());
        String record = fold.record(nextA);
        assertTrue(record.contains("\"base\":\"" + a.hash() + "\""), "the delta on a's own last manifest: " + record);
        fold.apply(record);
        assertEquals(nextA, fold.manifest());
        assertTrue(fold.record(nextA).contains("\"base\":\"" + nextA.hash() + "\""));
    }

    @Test
    void aBoundTheBlockCannotMeetIsRefusedWithTheFloor() {
        Store store = new InMemoryStore("budget", 4096);
        for (int i = 0; i < 20; i++) {
            store.put(dev.engram.entries.Entry.draft(USER, String.format("n-%02d", i), "x".repeat(299) + "\n",
                    java.util.Map.of()), PutOptions.NONE);
        }
        List<Scope> scopes = List.of(USER, new Scope("project"));
        for (int bound : new int[] {0, -100, 1, 80}) {
            Budget b = assertThrows(Budget.class, () -> Render.render(store, scopes,
                    RenderOptions.DEFAULT.maxTotalBytes(bound)));
            assertEquals(bound, b.bound());
            assertTrue(b.getMessage().contains(Integer.toString(b.needed())));
        }
        int floor = assertThrows(Budget.class, () -> Render.render(store, scopes,
                RenderOptions.DEFAULT.maxTotalBytes(1))).needed();
        for (int bound = floor; bound < floor + 64; bound++) {
            Rendered r = Render.render(store, scopes, RenderOptions.DEFAULT.maxTotalBytes(bound));
            assertTrue(dev.engram.kernel.Utf8.length(r.block()) <= bound);
        }
        assertThrows(Budget.class, () -> Render.render(store, scopes, RenderOptions.DEFAULT.maxTotalBytes(floor - 1)));
        assertThrows(Budget.class, () -> Render.render(store, scopes, RenderOptions.DEFAULT.scopeCap(USER, -1)));
        assertEquals("scope-repeated", assertThrows(Invalid.class, () -> Render.render(store, List.of(USER, USER),
                RenderOptions.DEFAULT)).rule());
    }

    @Test
    void aTinyBoundCountsWhatItCannotName() {
        Store store = new InMemoryStore("tiny", 4096);
        for (int i = 0; i < 8; i++) {
            store.put(dev.engram.entries.Entry.draft(USER, "note-" + i, "x".repeat(199) + "\n", java.util.Map.of()),
                    PutOptions.NONE);
        }
        Rendered r = Render.render(store, List.of(USER), RenderOptions.DEFAULT.maxTotalBytes(180));
        assertEquals(0, r.manifest().entries().size());
        assertEquals(8, r.manifest().omitted().size());
        assertTrue(r.block().contains("Not shown, over the block budget: 8 entries."), r.block());
    }
}
