package dev.engram.store.pg;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.context.ContextConfig;
import dev.engram.context.ContextState;

/**
 * A context's configuration and state as the {@code context} table keeps them, and the JSON of its journal records:
 * the core's records by their fields, in snake_case (no getter of the core leaks in, such as {@code isToolStep}).
 */
final class ContextRecords {

    static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .visibility(PropertyAccessor.CREATOR, JsonAutoDetect.Visibility.ANY)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private ContextRecords() {
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A context's value did not serialise", e);
        }
    }

    static ContextConfig config(String json) {
        return read(json, ContextConfig.class);
    }

    /** The memory block's settings of a configuration's JSON member {@code memory}; null or absent: none. */
    static ContextConfig.Memory memory(String json) {
        return json == null ? ContextConfig.Memory.NONE : read(json, ContextConfig.Memory.class);
    }

    static ContextState state(String json) {
        return read(json, ContextState.class);
    }

    private static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A context's " + type.getSimpleName() + " is not the JSON Engram wrote",
                    e);
        }
    }
}
