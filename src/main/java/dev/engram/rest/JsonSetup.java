package dev.engram.rest;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.engram.contexts.SummarizerChoice;
import dev.engram.kernel.Times;
import jakarta.inject.Singleton;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * The REST API's JSON, apart from the application's default mapper (which the MCP transport writes its protocol
 * with, in the protocol's camelCase): snake_case members; strict reading, where unknown members, duplicate members,
 * trailing tokens, scalars of the wrong type and {@code null} inside an array (every array of a body is a
 * {@code List}) are refused instead of guessed at; every string through the one text rule ({@link TextRule}); and
 * times in RFC 3339 with no trailing zeros, as the reference library writes them. Quarkus REST takes it through
 * {@link #getContext} to read bodies and write streams; {@link RestJsonWriter} writes the JSON answers with it.
 */
@Singleton
@Provider
public class JsonSetup implements ContextResolver<ObjectMapper> {

    private final ObjectMapper mapper;

    JsonSetup(ObjectMapper base) {
        this.mapper = configure(base.copyWith(new TextRule.Factory(base.getFactory())));
    }

    /** The REST API's mapper. */
    public ObjectMapper mapper() {
        return mapper;
    }

    @Override
    public ObjectMapper getContext(Class<?> type) {
        return mapper;
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        mapper.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
        mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
        for (CoercionInputShape shape : new CoercionInputShape[] {CoercionInputShape.Integer,
                CoercionInputShape.Float, CoercionInputShape.Boolean}) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.registerModule(new SimpleModule("engram-time").addSerializer(Instant.class, new Rfc3339()));
        mapper.registerModule(new SimpleModule("engram-summarizer").addSerializer(SummarizerChoice.class,
                new SummarizerJson.Writer()));
        return mapper;
    }

    /** Writes an instant as the reference library does: UTC, fraction only as long as it needs to be. */
    static final class Rfc3339 extends StdSerializer<Instant> {

        Rfc3339() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(format(value));
        }

        static String format(Instant value) {
            return Times.format(value);
        }
    }
}
