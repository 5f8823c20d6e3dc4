package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.kernel.Invalid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which stores a grant's pattern covers, and which patterns are refused. */
class StorePatternTest {

    @ParameterizedTest(name = "{0} covers {1}: {2}")
    @CsvSource({
            "acme,         acme,          true",
            "acme,         acme-prod,     false",
            "acme,         acm,           false",
            "acme-*,       acme-prod,     true",
            "acme-*,       acme-,         true",
            "acme-*,       acme,          false",
            "acme-*,       team-acme-1,   false",
            "*,            anything-1,    true",
            "*-prod,       acme-prod,     true",
            "*-prod,       acme-prod-2,   false",
            "a*b*c,        abc,           true",
            "a*b*c,        a-x-b-y-c,     true",
            "a*b*c,        a-x-c-y-b,     false",
            "a*a*a*b,      aaaaaaaaaaaa,  false",
            "a*a*a*b,      aaaaaaaaaaab,  true",
            "**,           x,             true",
            "team-*-eu,    team-a-eu,     true",
            "team-*-eu,    team-a-us,     false",
    })
    void matches(String pattern, String store, boolean covered) {
        StorePattern.check(pattern, "stores");
        assertEquals(covered, StorePattern.matches(pattern, store));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Acme", "acme_prod", "acme prod", "acme/*", "acme?", "-acme", "acme--prod"})
    void refusesPatternsThatCouldCoverNoValidStoreOrHoldOtherCharacters(String pattern) {
        Invalid e = assertThrows(Invalid.class, () -> StorePattern.check(pattern, "stores"));
        assertEquals("stores", e.field());
    }

    @Test
    void refusesAPatternLongerThanTheLimit() {
        assertThrows(Invalid.class, () -> StorePattern.check("a*".repeat(65), "stores"));
    }

    @Test
    void aLongAdversarialPatternStillAnswersQuickly() {
        String pattern = "a*".repeat(63) + "b";
        String store = "a".repeat(64);
        StorePattern.check(pattern, "stores");
        assertEquals(false, StorePattern.matches(pattern, store));
    }
}
