package dev.engram.journal.persistence;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/** An entry's meta as the database keeps it: a flat JSON object of strings, in a jsonb column. */
public final class MetaJson {

    /** The database's own mapper, apart from the one REST configures. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private MetaJson() {
    }

    public static String write(Map<String, String> meta) {
        try {
            return JSON.writeValueAsString(meta);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serialises", e);
        }
    }

    /**
     * The meta of {@code meta}'s text, keys in byte order. Read token by token rather than bound to a map by the
     * mapper: a render reads the meta of every entry it shows, and binding cost more than the read of the row.
     */
    public static Map<String, String> parse(String meta) {
        if (meta == null || meta.equals("{}")) {
            return Map.of();
        }
        try (JsonParser p = JSON.getFactory().createParser(meta)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw notFlat(meta);
            }
            Map<String, String> map = new TreeMap<>();
            for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
                String value = p.nextTextValue();
                if (value == null) {
                    throw notFlat(meta);
                }
                map.put(key, value);
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw notFlat(meta);
            }
            return map;
        } catch (IOException e) {
            throw new IllegalStateException("meta in the database is a JSON object of strings", e);
        }
    }

    private static IllegalStateException notFlat(String meta) {
        return new IllegalStateException("meta in the database is a flat JSON object of strings, not "
                + (meta.length() > 80 ? meta.substring(0, 80) + "..." : meta));
    }
}
