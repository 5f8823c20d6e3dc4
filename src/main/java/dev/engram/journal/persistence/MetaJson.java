package dev.engram.journal.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.util.Map;

/** An entry's meta as the database keeps it: a flat JSON object of strings, in a jsonb column. */
public final class MetaJson {

    /** The database's own mapper, apart from the one REST configures. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectReader READER = JSON.readerFor(new TypeReference<Map<String, String>>() { });

    private MetaJson() {
    }

    public static String write(Map<String, String> meta) {
        try {
            return JSON.writeValueAsString(meta);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serialises", e);
        }
    }

    public static Map<String, String> parse(String meta) {
        if (meta == null || meta.equals("{}")) {
            return Map.of();
        }
        try {
            return READER.readValue(meta);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("meta in the database is a JSON object of strings", e);
        }
    }
}
