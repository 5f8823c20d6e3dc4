package dev.engram.entries;

import static dev.engram.entries.StoreCases.PROJECT;
import static dev.engram.entries.StoreCases.USER;
import static dev.engram.entries.StoreCases.entry;
import static dev.engram.entries.StoreCases.repeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases of searching a {@link Store} (part of {@link StoreContract}): Search, and its orders by
 * name and by relevance.
 */
public interface StoreSearchContract extends StoreUnderTest {

    // ---------------------------------------------------------------------------------------------- Search

    private Store searchable() {
        Store s = newStore();
        s.put(entry(USER, "editor", "Uses Neovim with a dark theme.", Map.of("description", "Editor choice")),
                PutOptions.NONE);
        s.put(entry(USER, "timezone", "Europe/London"), PutOptions.NONE);
        s.put(entry(USER, "percent", "Coverage is 100% on main_branch."), PutOptions.NONE);
        s.put(entry(PROJECT, "build", "Run make check before a commit.", Map.of("type", "Neovim-free")),
                PutOptions.NONE);
        s.put(entry(PROJECT, "deploy", "Deploys on Fridays are forbidden."), PutOptions.NONE);
        return s;
    }

    private static List<String> names(List<Entry> entries) {
        return entries.stream().map(e -> e.scope() + "/" + e.name()).toList();
    }

    @Test
    default void searchMatchesEveryWordIgnoringCaseInNameMetaOrContent() {
        Store s = searchable();
        assertEquals(List.of("user/editor"), names(s.search(List.of(USER), "NEOVIM dark", 0)));
        assertEquals(List.of("user/editor"), names(s.search(List.of(USER), "choice", 0)), "a meta value matches");
        assertEquals(List.of("user/timezone"), names(s.search(List.of(USER), "timezone london", 0)),
                "one word in the name, one in the content");
        assertEquals(List.of(), names(s.search(List.of(USER), "neovim london", 0)), "every word must appear");
        assertEquals(List.of(), names(s.search(List.of(USER), "theme.europe", 0)));
    }

    @Test
    default void searchListsByScopeInTheOrderGivenThenName() {
        Store s = searchable();
        assertEquals(List.of("project/build", "user/editor"), names(s.search(List.of(PROJECT, USER), "neovim", 0)));
        assertEquals(List.of("user/editor", "project/build"), names(s.search(List.of(USER, PROJECT), "neovim", 0)));
        assertEquals(List.of("project/build", "project/deploy", "user/editor", "user/percent", "user/timezone"),
                names(s.search(List.of(), "", 0)), "no scopes searches every scope, an empty query matches all");
        assertEquals(List.of("user/editor", "user/percent"), names(s.search(List.of(USER, USER), "", 2)));
    }

    @Test
    default void searchTreatsLikeWildcardsAsText() {
        Store s = searchable();
        assertEquals(List.of("user/percent"), names(s.search(List.of(), "100%", 0)));
        assertEquals(List.of("user/percent"), names(s.search(List.of(), "main_branch", 0)));
        assertEquals(List.of(), names(s.search(List.of(), "%_%", 0)));
    }

    @Test
    default void searchSkipsForgottenEntriesAndSeesReplacements() {
        Store s = searchable();
        s.forget(USER, "editor", PutOptions.NONE);
        s.put(entry(USER, "timezone", "America/New_York"), PutOptions.NONE);
        assertEquals(List.of("project/build"), names(s.search(List.of(USER, PROJECT), "neovim", 0)));
        assertEquals(List.of(), names(s.search(List.of(USER), "london", 0)));
        assertEquals(List.of("user/timezone"), names(s.search(List.of(USER), "new_york", 0)));
    }

    @Test
    default void searchFoldsUnicodeCase() {
        Store s = newStore();
        s.put(entry(USER, "city", "Lives in MÜNCHEN, loves ÆBLESKIVER."), PutOptions.NONE);
        assertEquals(List.of("user/city"), names(s.search(List.of(USER), "münchen æbleskiver", 0)));
    }

    // ---------------------------------------------------------------------------------------------- Search order

    private static List<String> names(Paged<Entry> page) {
        return names(page.items());
    }

    private static Paged<Entry> byRelevance(Store s, List<Scope> scopes, String query, int offset, int limit) {
        return s.searchPage(scopes, query, SearchOrder.RELEVANCE, offset, limit, 1 << 20);
    }

    @Test
    default void relevancePutsTheEntryHoldingTheQueryWordsMostOftenFirst() {
        Store s = newStore();
        s.put(entry(USER, "alpha", "The deploy script runs after review, then the team waits for the checks."),
                PutOptions.NONE);
        s.put(entry(USER, "beta", "Deploy, deploy, deploy: deploy on green."), PutOptions.NONE);
        s.put(entry(USER, "gamma", "Nothing here about shipping."), PutOptions.NONE);
        assertEquals(List.of("user/alpha", "user/beta"), names(s.search(List.of(USER), "deploy", 0)));
        assertEquals(List.of("user/beta", "user/alpha"), names(byRelevance(s, List.of(USER), "deploy", 0, 10)));
        assertEquals(List.of("user/alpha", "user/beta"),
                names(s.searchPage(List.of(USER), "deploy", SearchOrder.NAME, 0, 10, 1 << 20)), "name order as ever");
    }

    @Test
    default void relevancePutsTheShorterOfTwoEntriesHoldingTheWordAsOftenFirst() {
        Store s = newStore();
        s.put(entry(PROJECT, "cache", "Redis cache in front of the catalogue, warmed nightly by a job that reads "
                + "yesterday's orders, expired after six hours, and flushed by hand after a price change."),
                PutOptions.NONE);
        s.put(entry(PROJECT, "edge", "Redis keeps sessions."), PutOptions.NONE);
        assertEquals(List.of("project/cache", "project/edge"), names(s.search(List.of(), "redis", 0)));
        assertEquals(List.of("project/edge", "project/cache"), names(byRelevance(s, List.of(), "REDIS", 0, 10)));
    }

    @Test
    default void relevanceMatchesWhatNameOrderMatches() {
        Store s = searchable();
        for (String q : List.of("neovim", "NEOVIM dark", "choice", "100%", "main_branch", "fri", "neovim london", "",
                "the")) {
            for (List<Scope> scopes : List.of(List.<Scope>of(), List.of(USER), List.of(PROJECT, USER))) {
                List<String> byName = names(s.search(scopes, q, 0));
                List<String> ranked = names(byRelevance(s, scopes, q, 0, 100));
                assertEquals(byName.stream().sorted().toList(), ranked.stream().sorted().toList(), q + " " + scopes);
            }
        }
        assertEquals(List.of("project/deploy"), names(byRelevance(s, List.of(), "fri", 0, 10)),
                "a substring matches as it does by name, though no term holds it");
    }

    @Test
    default void relevanceBreaksTiesByScopeThenName() {
        Store s = newStore();
        for (Scope scope : List.of(USER, PROJECT)) {
            for (String name : List.of("k2", "k1")) {
                s.put(entry(scope, name, "Tabs, not spaces, in the code."), PutOptions.NONE);
            }
        }
        s.put(entry(USER, "k3", "Tabs only, tabs always in the code."), PutOptions.NONE);
        assertEquals(List.of("user/k3", "project/k1", "project/k2", "user/k1", "user/k2"),
                names(byRelevance(s, List.of(), "tabs", 0, 10)), "every scope: byte order");
        assertEquals(List.of("user/k3", "user/k1", "user/k2", "project/k1", "project/k2"),
                names(byRelevance(s, List.of(USER, PROJECT), "tabs", 0, 10)), "named scopes: in the order given");
        assertEquals(List.of("project/k1", "project/k2", "user/k1", "user/k2", "user/k3"),
                names(byRelevance(s, List.of(), "the", 0, 10)), "a query of no term to rank by lists by name");
    }

    @Test
    default void relevancePagesOverTheWholeRankedSet() {
        Store s = newStore();
        for (int i = 1; i <= 5; i++) {
            s.put(entry(USER, "n" + i, ("lint " + repeat('x', 40) + " ").repeat(i) + "trailing words here"),
                    PutOptions.NONE);
        }
        s.put(entry(USER, "n0", "Nothing."), PutOptions.NONE);
        List<String> whole = names(byRelevance(s, List.of(USER), "lint", 0, 10));
        assertEquals(List.of("user/n5", "user/n4", "user/n3", "user/n2", "user/n1"), whole);
        Paged<Entry> first = byRelevance(s, List.of(USER), "lint", 0, 2);
        Paged<Entry> second = byRelevance(s, List.of(USER), "lint", 2, 2);
        Paged<Entry> last = byRelevance(s, List.of(USER), "lint", 4, 2);
        assertEquals(whole.subList(0, 2), names(first));
        assertTrue(first.more());
        assertEquals(whole.subList(2, 4), names(second));
        assertTrue(second.more());
        assertEquals(whole.subList(4, 5), names(last));
        assertFalse(last.more());
        assertEquals(List.of(), names(byRelevance(s, List.of(USER), "lint", 9, 2)));
        assertFalse(byRelevance(s, List.of(USER), "lint", 9, 2).more());

        long twoBest = s.get(USER, "n5").size() + s.get(USER, "n4").size();
        Paged<Entry> bounded = s.searchPage(List.of(USER), "lint", SearchOrder.RELEVANCE, 0, 10, twoBest);
        assertEquals(whole.subList(0, 2), names(bounded), "the byte bound cuts the ranked list, not the name list");
        assertTrue(bounded.more());
        Paged<Entry> tight = s.searchPage(List.of(USER), "lint", SearchOrder.RELEVANCE, 1, 10, 1);
        assertEquals(whole.subList(1, 2), names(tight), "the first is always sent");
        assertTrue(tight.more());
    }

    @Test
    default void aSearchPageByNameGoesOnAtAnOffset() {
        Store s = searchable();
        Paged<Entry> first = s.searchPage(List.of(), "", SearchOrder.NAME, 0, 2, 1 << 20);
        assertEquals(List.of("project/build", "project/deploy"), names(first));
        assertTrue(first.more(), "more when the limit ends the page");
        Paged<Entry> rest = s.searchPage(List.of(), "", SearchOrder.NAME, 2, 5, 1 << 20);
        assertEquals(List.of("user/editor", "user/percent", "user/timezone"), names(rest));
        assertFalse(rest.more());
        assertEquals(List.of("user/percent"), names(s.searchPage(List.of(USER), "", SearchOrder.NAME, 1, 1, 1 << 20)));
        assertEquals(List.of(), names(s.searchPage(List.of(), "", SearchOrder.NAME, Integer.MAX_VALUE, 5, 1 << 20)));
        assertEquals("query-words", assertThrows(Invalid.class, () -> s.searchPage(List.of(),
                "w ".repeat(Match.MAX_QUERY_WORDS + 1), SearchOrder.RELEVANCE, 0, 5, 1 << 20)).rule());
        assertEquals("query-nul", assertThrows(Invalid.class, () -> s.searchPage(List.of(), "a\u0000b",
                SearchOrder.RELEVANCE, 0, 5, 1 << 20)).rule());
    }
}
