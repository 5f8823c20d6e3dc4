package dev.engram.rest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.engram.contexts.SummarizerChoice;
import dev.engram.kernel.Invalid;
import java.io.IOException;
import java.util.Iterator;

/**
 * A strategy's {@code summarizer} in JSON: {@code "server"} (or absent: the server's summarizer), {@code "none"}
 * (the fallback texts) or {@code {"model": "gpt-4o-mini"}} (another model of the server's provider). Anything else
 * is refused; in particular a base URL, a key or a provider, which stay the server's.
 */
public final class SummarizerJson {

    private static final String FIELD = "strategy.summarizer";

    private SummarizerJson() {
    }

    /** The choice {@code node} names; null or absent is the server's. */
    public static SummarizerChoice choice(JsonNode node) {
        if (node == null || node.isNull()) {
            return SummarizerChoice.SERVER;
        }
        if (node.isTextual() && (node.textValue().equals("server") || node.textValue().equals("none"))) {
            return node.textValue().equals("none") ? SummarizerChoice.NONE : SummarizerChoice.SERVER;
        }
        if (!node.isObject()) {
            throw new Invalid("summarizer-unknown", FIELD, "summarizer is \"server\" (the server's summarizer), "
                    + "\"none\" (the reference's fallback texts) or {\"model\": \"gpt-4o-mini\"} (another model of "
                    + "the server's provider), not " + node + ".");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!name.equals("model")) {
                throw new Invalid("summarizer-member", FIELD + "." + name, "A context chooses only a summarizer's "
                        + "model ({\"model\": \"gpt-4o-mini\"}), not its \"" + name + "\": the provider, base URL and "
                        + "key are the server's (ENGRAM_CONTEXT_SUMMARIZER_*).");
            }
        }
        JsonNode model = node.get("model");
        if (model == null || !model.isTextual() || model.textValue().isEmpty()) {
            throw new Invalid("summarizer-model", FIELD + ".model", "Name the model as a string: {\"model\": "
                    + "\"gpt-4o-mini\"}.");
        }
        return SummarizerChoice.model(model.textValue());
    }

    /** Writes a choice as {@link #choice} reads it. */
    static final class Writer extends StdSerializer<SummarizerChoice> {

        Writer() {
            super(SummarizerChoice.class);
        }

        @Override
        public void serialize(SummarizerChoice value, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            if (value.kind().equals("model")) {
                gen.writeStartObject();
                gen.writeStringField("model", value.model());
                gen.writeEndObject();
            } else {
                gen.writeString(value.kind());
            }
        }
    }
}
