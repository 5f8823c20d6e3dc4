package dev.engram.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.spi.ServerMessageBodyWriter;
import org.jboss.resteasy.reactive.server.spi.ServerRequestContext;

/**
 * The REST API's {@code application/json} answers, written with {@link JsonSetup}'s mapper, which this writer holds.
 * Quarkus REST's own Jackson writer asked the providers for the mapper's {@code ContextResolver} on every answer,
 * about 1% of a point read's CPU; Engram uses no JSON views or custom serializations that it would also look for.
 * As Quarkus's writer does, a {@code String} is sent as it stands (it is JSON already), and a declared generic type
 * (a {@code Map} of {@code List}s of records) is written as that type. NDJSON, event streams and problem details keep Quarkus's
 * writers, which take the same mapper from {@link JsonSetup}.
 */
@Provider
@Produces(MediaType.APPLICATION_JSON)
public class RestJsonWriter extends ServerMessageBodyWriter.AllWriteableMessageBodyWriter {

    private final ObjectMapper mapper;
    private final ObjectWriter plain;
    private final Map<Type, Declared> declared = new ConcurrentHashMap<>();

    /** A generic type a resource declares (a {@code Map} of {@code List}s), and the writer made for it once. */
    private record Declared(JavaType type, ObjectWriter writer) {
    }

    RestJsonWriter(JsonSetup json) {
        this.mapper = json.mapper();
        // As Quarkus's writer: the stream is closed here once the value is written, and a flush of the generator
        // is not passed on, which would send the answer in chunks rather than with its length.
        JsonFactory factory = mapper.getFactory().copy();
        factory.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        factory.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
        factory.setCodec(mapper);
        this.plain = mapper.writer().with(factory);
    }

    @Override
    public void writeResponse(Object o, Type genericType, ServerRequestContext context) throws IOException {
        OutputStream out = context.getOrCreateOutputStream();
        write(o, genericType, out);
        out.close();
    }

    @Override
    public void writeTo(Object o, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
            MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
        write(o, genericType, out);
    }

    private void write(Object o, Type genericType, OutputStream out) throws IOException {
        if (o instanceof String text) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            return;
        }
        writerFor(genericType, o).writeValue(out, o);
    }

    /** The plain writer, or one for the declared type when it is generic and {@code o} is of it. */
    private ObjectWriter writerFor(Type genericType, Object o) {
        if (!(genericType instanceof ParameterizedType) || o == null) {
            return plain;
        }
        Declared d = declared.computeIfAbsent(genericType, t -> {
            JavaType type = mapper.getTypeFactory().constructType(t);
            return new Declared(type, plain.forType(type));
        });
        return d.type().isTypeOrSuperTypeOf(o.getClass()) ? d.writer() : plain;
    }
}
