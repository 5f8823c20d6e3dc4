package dev.engram.access.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Grant;
import dev.engram.access.KeyRecord;
import dev.engram.access.Keys;
import dev.engram.access.Role;
import dev.engram.kernel.Paged;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The keys' pages read from PostgreSQL: they follow the list's order, page after page, a revoked key keeping its place
 * to page after, and none follow a key that never was.
 */
@QuarkusTest
class PgKeysTest {

    @Inject
    Keys keys;

    private List<String> issue(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(keys.issue("paged-" + UUID.randomUUID().toString().substring(0, 8),
                    List.of(Grant.of("paged-*", Role.READ))).key().id());
        }
        return ids;
    }

    private static List<String> ids(Paged<KeyRecord> page) {
        return page.items().stream().map(KeyRecord::id).toList();
    }

    @Test
    void pagesFollowTheListAndEndWhereItEnds() {
        issue(3);
        List<String> live = keys.list().stream().map(KeyRecord::id).toList();
        Paged<KeyRecord> first = keys.page("", 2);
        assertEquals(live.subList(0, 2), ids(first));
        assertTrue(first.more());
        Paged<KeyRecord> middle = keys.page(live.get(1), 2);
        assertEquals(live.subList(2, Math.min(4, live.size())), ids(middle));
        Paged<KeyRecord> last = keys.page(live.get(live.size() - 2), 2);
        assertEquals(List.of(live.get(live.size() - 1)), ids(last));
        assertFalse(last.more(), "nothing follows the last key");
        assertEquals(live, ids(keys.page("", live.size() + 1)), "every live key on one page large enough");
        assertEquals(ids(keys.page("", 3)), ids(keys.page(null, 3)), "null starts at the first, as \"\" does");
    }

    @Test
    void aRevokedKeyKeepsItsPlaceAndANeverIssuedOneHasNone() {
        List<String> made = issue(3);
        assertTrue(keys.revoke(made.get(1)));
        Paged<KeyRecord> after = keys.page(made.get(1), 10);
        assertEquals(made.get(2), after.items().get(0).id(), "the page after a revoked key starts after its place");
        assertFalse(ids(keys.page(made.get(0), 10)).contains(made.get(1)), "a revoked key is on no page");
        assertEquals(List.of(), keys.page("key_never-issued", 10).items());
        assertFalse(keys.page("key_never-issued", 10).more());
    }
}
