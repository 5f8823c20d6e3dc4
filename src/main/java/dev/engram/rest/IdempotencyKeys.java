package dev.engram.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.entries.Hash;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.entries.PutOptions;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextWrite;
import jakarta.enterprise.context.ApplicationScoped;
import dev.engram.access.rest.Gate;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.ToIntFunction;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Reads a write's {@code Idempotency-Key} header into an {@link IdempotencyKey} of the {@link Caller}, with the
 * fingerprint of the request: a hash of its method, its path and its body as parsed, map keys sorted, so that the
 * same request sent again with other white space or member order is the same request. Headers are not part of it:
 * a client that retries with a fresher {@code If-Match} is retrying the same write.
 *
 * <p>The one place that answers a replay: every tier's routes read their key here, and a write whose key wrote before
 * is answered here as its first answer marked {@link #REPLAYED} ({@link #replayed}); entries and memory saves rebuild
 * it from the record the key points to, contexts get it as recorded ({@link #once}). Which routes take a key at all
 * is decided in one place too, {@link StrictRequests#refuseKeysWhereNotKept}.
 */
@ApplicationScoped
public class IdempotencyKeys {

    /** The response header that marks an answer replayed from the first request under its key. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .build();

    @Inject
    Gate gate;

    @Inject
    JsonSetup json;

    /** The key in {@code header} for the request {@code method path} with {@code body}; empty when none was sent. */
    public Optional<IdempotencyKey> read(String header, String method, String path, Object body) {
        if (header == null) {
            return Optional.empty();
        }
        IdempotencyKey.check(header);
        return Optional.of(IdempotencyKey.of(gate.caller().id(), header, fingerprint(method, path, body)));
    }

    /** {@code options} made at most once under the key in {@code header}, if one was sent. */
    public PutOptions apply(PutOptions options, String header, String method, String path, Object body) {
        return read(header, method, path, body).map(options::idempotent).orElse(options);
    }

    /**
     * A context change made at most once under the key in {@code header}, if one was sent: its answer is recorded
     * with the key as {@code status} (of the answer) and the body as this API writes it, to be replayed as it was.
     */
    public <T> Optional<ContextStore.Once<T>> once(String header, String method, String path, Object body,
            ToIntFunction<T> status, java.util.function.Function<T, Object> answer) {
        return read(header, method, path, body).map(k -> new ContextStore.Once<>(k, t -> {
            Object shown = answer.apply(t);
            try {
                return status.applyAsInt(t) + " " + (shown == null ? "" : json.mapper().writeValueAsString(shown));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("an answer always serialises", e);
            }
        }));
    }

    /**
     * What a context change under {@link #once} answers: its answer with {@code status} when it landed (no body for a
     * null answer), its first answer as recorded, marked replayed, when it is a retry ({@link #replay}).
     */
    public <T> RestResponse<T> answer(ContextWrite<T> write, int status) {
        return write.fold(a -> {
            RestResponse.ResponseBuilder<T> r = RestResponse.ResponseBuilder.create(status);
            return (a == null ? r : r.entity(a)).build();
        }, IdempotencyKeys::replay);
    }

    /** The first answer of a context change under its key, as {@link #once} recorded it, marked replayed. */
    @SuppressWarnings("unchecked")
    public static <T> RestResponse<T> replay(String reply) {
        int space = reply.indexOf(' ');
        String body = reply.substring(space + 1);
        RestResponse.ResponseBuilder<Object> r = RestResponse.ResponseBuilder.create(
                Integer.parseInt(reply.substring(0, space)));
        r.header(REPLAYED, "true");
        if (!body.isEmpty()) {
            r.type(MediaType.APPLICATION_JSON + ";charset=UTF-8").entity(body);
        }
        return (RestResponse<T>) (RestResponse<?>) r.build();
    }

    /** {@code answer}, marked as the first answer replayed when it is one. */
    public static <T> RestResponse<T> replayed(RestResponse.ResponseBuilder<T> answer, boolean replayed) {
        if (replayed) {
            answer.header(REPLAYED, "true");
        }
        return answer.build();
    }

    static String fingerprint(String method, String path, Object body) {
        try {
            return Hash.of(CANONICAL.writeValueAsString(Arrays.asList(method, path, body)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed body always serialises", e);
        }
    }
}
