package dev.engram.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.memory.Hash;
import dev.engram.memory.IdempotencyKey;
import dev.engram.memory.PutOptions;
import jakarta.enterprise.context.ApplicationScoped;
import dev.engram.api.access.Gate;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads a write's {@code Idempotency-Key} header into an {@link IdempotencyKey} of the {@link Caller}, with the
 * fingerprint of the request: a hash of its method, its path and its body as parsed, map keys sorted, so that the
 * same request sent again with other white space or member order is the same request. Headers are not part of it:
 * a client that retries with a fresher {@code If-Match} is retrying the same write.
 */
@ApplicationScoped
class IdempotencyKeys {

    /** The response header that marks an answer replayed from the first request under its key. */
    static final String REPLAYED = "Idempotent-Replayed";

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .build();

    @Inject
    Gate gate;

    /** The key in {@code header} for the request {@code method path} with {@code body}; empty when none was sent. */
    Optional<IdempotencyKey> read(String header, String method, String path, Object body) {
        if (header == null) {
            return Optional.empty();
        }
        IdempotencyKey.check(header);
        return Optional.of(IdempotencyKey.of(gate.caller().id(), header, fingerprint(method, path, body)));
    }

    /** {@code options} made at most once under the key in {@code header}, if one was sent. */
    PutOptions apply(PutOptions options, String header, String method, String path, Object body) {
        return read(header, method, path, body).map(options::idempotent).orElse(options);
    }

    static String fingerprint(String method, String path, Object body) {
        try {
            return Hash.of(CANONICAL.writeValueAsString(Arrays.asList(method, path, body)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed body always serialises", e);
        }
    }
}
