package dev.engram.entries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.engram.kernel.Scope;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * An entry's version is the digest of its content hash and its meta in key order, whatever order the meta was
 * given in: an entry's own (sorted) meta is digested as it stands, any other map is put in order first. The
 * expected digests were computed outside Java (Python's hashlib) from the text {@link Hash#version} documents.
 */
class HashVersionTest {

    private static final String HASH = "sha256:9e2ec912af5dff2a72300863864fc4da04e81999339d9fac5c7590ba8a3f4e11";
    private static final String THREE_KEYS = "v:f8638e5f92f70dce71e8eb05db032d683e6671d68316da780483f9dee9a3cb0e";

    @Test
    void the_version_is_the_digest_of_the_documented_text() {
        assertEquals(HASH, Hash.of("body\n"));
        assertEquals("v:27400490da270f688ed8da3ff1870d15b7f5a392624d4387880e9995f38305ea", Hash.version(HASH, Map.of()));
        assertEquals(THREE_KEYS, Hash.version(HASH, new TreeMap<>(Map.of("zeta", "last", "alpha", "1",
                "description", "A note"))));
    }

    @Test
    void meta_in_any_order_gives_the_same_version() {
        Map<String, String> backwards = new LinkedHashMap<>();
        backwards.put("zeta", "last");
        backwards.put("description", "A note");
        backwards.put("alpha", "1");
        assertEquals(THREE_KEYS, Hash.version(HASH, backwards));
        Entry stored = new Entry(Scope.of("user"), "n", "body\n", backwards, HASH, null, false);
        assertEquals(THREE_KEYS, stored.version());
        TreeMap<String, String> reversed = new TreeMap<>(java.util.Comparator.reverseOrder());
        reversed.putAll(backwards);
        assertEquals(THREE_KEYS, Hash.version(HASH, reversed), "a map sorted some other way is put in key order");
    }

    @Test
    void a_change_of_one_meta_value_changes_the_version() {
        assertNotEquals(THREE_KEYS, Hash.version(HASH, Map.of("zeta", "last", "alpha", "2", "description", "A note")));
    }
}
