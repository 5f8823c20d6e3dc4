package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Keys: their form, their entropy, and what is kept of them. */
class ApiKeysTest {

    static final Pattern FORM = Pattern.compile("eng_[A-Za-z0-9_-]{43}");

    @Test
    void aKeyIsThePrefixAnd256RandomBitsInAUrlSafeAlphabet() {
        SecureRandom random = new SecureRandom();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String key = ApiKeys.generate(random);
            assertTrue(FORM.matcher(key).matches(), key);
            assertTrue(ApiKeys.hasKeyForm(key), key);
            assertTrue(seen.add(key), "keys do not repeat");
        }
        assertEquals(256, ApiKeys.BYTES * 8);
    }

    @Test
    void onlyTheHashIsKeptAndItIsTheSha256OfTheKey() {
        String key = "eng_" + "A".repeat(43);
        assertTrue(ApiKeys.hash(key).matches("sha256:[0-9a-f]{64}"));
        assertEquals(dev.engram.entries.Hash.of(key), ApiKeys.hash(key));
        assertNotEquals(ApiKeys.hash(key), ApiKeys.hash(key.replace('A', 'B')));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "eng_", "eng_short", "ENG_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "eng_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+", "eng_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "xyz.abc.def"})
    void tokensWithoutTheFormOfAKeyAreNotLookedUp(String token) {
        assertFalse(ApiKeys.hasKeyForm(token));
    }

    @Test
    void idsAreNotSecretsButDoNotRepeat() {
        SecureRandom random = new SecureRandom();
        String id = ApiKeys.newId(random);
        assertTrue(id.matches("key_[A-Za-z0-9_-]{16}"), id);
        assertNotEquals(id, ApiKeys.newId(random));
    }
}
