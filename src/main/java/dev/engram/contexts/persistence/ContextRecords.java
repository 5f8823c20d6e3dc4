package dev.engram.contexts.persistence;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.ContextState;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.Step;
import dev.engram.kernel.KeptFew;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

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

    /**
     * The configuration {@code json} holds. Configurations are immutable and change rarely, while every change of a
     * context reads its row: the last ones read are kept by their text, so a change under the store's lock does not
     * parse the same JSON again.
     */
    static ContextConfig config(String json) {
        ContextConfig known = CONFIGS.get(json);
        if (known != null) {
            return known;
        }
        ContextConfig parsed = read(json, ContextConfig.class);
        CONFIGS.put(json, parsed);
        return parsed;
    }

    /** How many configurations {@link #config} keeps (about 1 kB of JSON each, twice: text and parsed). */
    static final int MAX_CONFIGS_KEPT = 1024;

    private static final KeptFew<String, ContextConfig> CONFIGS = new KeptFew<>(MAX_CONFIGS_KEPT);

    static Step step(String json) {
        return read(json, Step.class);
    }

    /** The JSON of {@code state} as {@code context.state} keeps it: everything but the steps, which are rows. */
    static String stateWithoutSteps(ContextState state) {
        return json(new StoredState(state.systemPrompt(), state.task(), state.taskBlocks(), state.plan(),
                state.priorConversation(), state.pendingInterjection(), List.of(), state.compacted(),
                state.compactedPrefix(), state.compactedThroughIndex(), state.lastKnownUsed(), state.pendingDelta()));
    }

    /** {@code context.state} as written; its steps are empty unless it was written before the steps were rows. */
    static StoredState storedState(String json) {
        return read(json, StoredState.class);
    }

    /**
     * A context's state as the column holds it. Unlike {@link ContextState} it keeps the compacted index as written,
     * which the steps kept apart would otherwise clamp to 0. Registered for the native image, as Jackson reads it.
     */
    @RegisterForReflection
    record StoredState(String systemPrompt, String task, List<ContentBlock> taskBlocks, String plan,
            List<Message> priorConversation, String pendingInterjection, List<Step> steps, boolean compacted,
            List<Message> compactedPrefix, int compactedThroughIndex, int lastKnownUsed, int pendingDelta) {

        StoredState {
            steps = steps == null ? List.of() : steps;
        }

        /** The state with {@code rows} as its steps. */
        ContextState with(List<Step> rows) {
            return new ContextState(systemPrompt, task, taskBlocks, plan, priorConversation, pendingInterjection, rows,
                    compacted, compactedPrefix, compactedThroughIndex, lastKnownUsed, pendingDelta);
        }
    }

    /** The memory block's settings of a configuration's JSON member {@code memory}; null or absent: none. */
    static ContextConfig.Memory memory(String json) {
        return json == null ? ContextConfig.Memory.NONE : read(json, ContextConfig.Memory.class);
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
