package dev.engram.journal.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The meta's text as PostgreSQL gives a jsonb back, read token by token into the map it was written from. */
class MetaJsonTest {

    @Test
    void whatIsWrittenIsReadBackWithEveryEscapeAndKeysInByteOrder() {
        Map<String, String> meta = Map.of("description", "a \"quoted\" line\nand a tab\t, a \\ and a /",
                "ü", "ß 😀 \u0001", "", "", "b", "{\"not\": \"nested\"}");
        Map<String, String> read = MetaJson.parse(MetaJson.write(meta));
        assertEquals(meta, read);
        assertEquals(List.of("", "b", "description", "ü"), List.copyOf(read.keySet()));
    }

    @Test
    void jsonbsOwnSpacingAndUnicodeEscapesRead() {
        assertEquals(Map.of("description", "é😀", "a", "1"),
                MetaJson.parse("{\"a\": \"1\", \"description\": \"\\u00e9\\ud83d\\ude00\"}"));
        assertEquals(Map.of(), MetaJson.parse("{}"));
        assertEquals(Map.of(), MetaJson.parse(" { } "));
        assertEquals(Map.of(), MetaJson.parse(null));
    }

    @Test
    void anythingButAFlatObjectOfStringsIsRefused() {
        for (String bad : List.of("[]", "\"x\"", "{\"a\": 1}", "{\"a\": {\"b\": \"c\"}}", "{\"a\": null}",
                "{\"a\": \"b\"} {}", "{\"a\": \"b\"", "{\"a\": [\"b\"]}")) {
            assertThrows(IllegalStateException.class, () -> MetaJson.parse(bad), bad);
        }
    }
}
