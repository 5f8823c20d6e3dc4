package dev.engram.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import dev.engram.contexts.Context;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;
import java.io.DataInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The one text rule ({@link Utf8#firstUnstorable}: no NUL, no unpaired surrogate, which PostgreSQL cannot keep)
 * applied to every string a REST body holds, as the REST API's JSON parser reads it: member values, member names, and
 * strings nested in free JSON (a step's {@code input}), so that no field can be forgotten. A refusal is a 422 naming
 * the member, rule {@code text-nul} or {@code text-encoding} ({@code content-nul}, {@code content-encoding} for a
 * top-level {@code content}, as the entries have always named it), and nothing is written, as no resource has run.
 * Two places are left to their own rules: the system prompt's cache-break marker ({@link Context#CACHE_BREAK}) in a
 * top-level {@code text} member, the one NUL a body may hold (the contexts refuse it anywhere else), and a tool call's
 * {@code arguments}, whose mistakes are the model's and answered as a tool error.
 */
final class TextRule extends JsonParserDelegate {

    private TextRule(JsonParser parser) {
        super(parser);
    }

    /** The parser factory of the REST API's mapper: every parser it makes checks text. */
    static final class Factory extends JsonFactory {

        private static final long serialVersionUID = 1L;

        Factory(JsonFactory src) {
            super(src, null);
        }

        @Override
        public JsonFactory copy() {
            return new Factory(this);
        }

        @Override
        protected JsonParser _createParser(InputStream in, IOContext ctxt) throws IOException {
            return new TextRule(super._createParser(in, ctxt));
        }

        @Override
        protected JsonParser _createParser(Reader r, IOContext ctxt) throws IOException {
            return new TextRule(super._createParser(r, ctxt));
        }

        @Override
        protected JsonParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable)
                throws IOException {
            return new TextRule(super._createParser(data, offset, len, ctxt, recyclable));
        }

        @Override
        protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
            return new TextRule(super._createParser(data, offset, len, ctxt));
        }

        @Override
        protected JsonParser _createParser(DataInput input, IOContext ctxt) throws IOException {
            return new TextRule(super._createParser(input, ctxt));
        }
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken t = delegate.nextToken();
        if (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) {
            check(t);
        }
        return t;
    }

    private void check(JsonToken t) throws IOException {
        String text = t == JsonToken.FIELD_NAME ? delegate.currentName() : delegate.getText();
        int at = text == null ? -1 : Utf8.firstUnstorable(text);
        if (at < 0 || inToolArguments() || (isSystemPromptText(t)
                && Utf8.firstUnstorable(text.replace(Context.CACHE_BREAK, "")) < 0)) {
            return;
        }
        String field = member();
        boolean nul = text.charAt(at) == 0;
        String rule = (field.equals("content") ? "content" : "text") + (nul ? "-nul" : "-encoding");
        throw new Invalid(rule, field, (field.isEmpty() ? "The body" : field) + " holds " + (nul
                ? "a NUL character (\\u0000)" : "an unpaired surrogate") + " at character " + at + ", which cannot "
                + "be stored; send well-formed Unicode text without NUL.");
    }

    /**
     * Whether the parser is inside a tool call's {@code arguments}: what a model wrote, whose mistakes are answered
     * as a tool error for it to correct, each tool checking its text by the store's rules.
     */
    private boolean inToolArguments() {
        JsonStreamContext c = delegate.getParsingContext();
        while (c != null && c.getParent() != null && !c.getParent().inRoot()) {
            c = c.getParent();
        }
        return c != null && c.inObject() && "arguments".equals(c.getCurrentName());
    }

    private boolean isSystemPromptText(JsonToken t) {
        JsonStreamContext c = delegate.getParsingContext();
        return t == JsonToken.VALUE_STRING && c.inObject() && "text".equals(c.getCurrentName())
                && c.getParent() != null && c.getParent().inRoot();
    }

    /**
     * Where the parser is, as the problems name a member: {@code tags.0}, {@code action.input.query}; a character of
     * a member name that a problem cannot show (a control character, a surrogate) shown as {@code ?}.
     */
    private String member() {
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = delegate.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.addFirst(String.valueOf(Math.max(0, c.getCurrentIndex())));
            } else if (c.getCurrentName() != null) {
                parts.addFirst(shown(c.getCurrentName()));
            }
        }
        return String.join(".", parts);
    }

    /** {@code name} with each control character and surrogate as {@code ?}, which a problem can always show. */
    static String shown(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (char c : name.toCharArray()) {
            b.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return b.toString();
    }

    // The shortcuts below would read past nextToken(), so they are taken through it.

    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken t = nextToken();
        return t == JsonToken.FIELD_NAME ? nextToken() : t;
    }

    @Override
    public String nextFieldName() throws IOException {
        return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
    }

    @Override
    public boolean nextFieldName(SerializableString name) throws IOException {
        return nextToken() == JsonToken.FIELD_NAME && name.getValue().equals(currentName());
    }

    @Override
    public String nextTextValue() throws IOException {
        return nextToken() == JsonToken.VALUE_STRING ? getText() : null;
    }

    @Override
    public int nextIntValue(int defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getIntValue() : defaultValue;
    }

    @Override
    public long nextLongValue(long defaultValue) throws IOException {
        return nextToken() == JsonToken.VALUE_NUMBER_INT ? getLongValue() : defaultValue;
    }

    @Override
    public Boolean nextBooleanValue() throws IOException {
        JsonToken t = nextToken();
        return t == JsonToken.VALUE_TRUE ? Boolean.TRUE : t == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
    }
}
