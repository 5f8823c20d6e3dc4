package dev.engram.documents.stores.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.SQLException;
import java.util.Map;

/** The JSON columns the memory stores read (a profile's metadata, a version's record), parsed as trees and maps. */
final class RecordJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordJson() {
    }

    /** The metadata column: an object of strings. */
    static Map<String, String> metadata(String json) throws SQLException {
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() {
            });
        } catch (JsonProcessingException e) {
            throw new SQLException("store_profile.metadata is not an object of strings", e);
        }
    }

    /** A journal record's JSON. */
    static JsonNode tree(String json) throws SQLException {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new SQLException("journal.record of a document is not JSON", e);
        }
    }
}
