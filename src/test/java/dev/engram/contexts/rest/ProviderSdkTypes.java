package dev.engram.contexts.rest;

import static org.junit.jupiter.api.Assertions.fail;

import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The second check of a provider-form answer (after {@link ProviderShapes}): the providers' official Java SDKs read
 * it, with their own JSON mappers, into their request bodies ({@code MessageCreateParams.Body},
 * {@code ChatCompletionCreateParams.Body}) and validate them. Beyond {@code validate()} (required members, the
 * member's type, a union that is none of its variants), every object read is walked: a member the SDK does not know
 * (kept in its additional properties) or an enum value it does not know (a role, a block's type) fails too.
 */
final class ProviderSdkTypes {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ProviderSdkTypes() {
    }

    /** Engram's openai-chat {@code messages} as OpenAI's SDK would send them in a chat completion request. */
    static void assertOpenAiSdkReads(JsonNode messages, String what) {
        ObjectNode body = NODES.objectNode().put("model", "gpt-4o-mini");
        body.set("messages", messages);
        ChatCompletionCreateParams.Body read = read(com.openai.core.ObjectMappers.jsonMapper(), body,
                ChatCompletionCreateParams.Body.class, what);
        check(what, body, () -> read.validate());
        walk(read, what, body, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /**
     * Engram's anthropic answer (an object with {@code messages} and perhaps {@code system}) as Anthropic's SDK would
     * send it in a messages request.
     */
    static void assertAnthropicSdkReads(JsonNode request, String what) {
        ObjectNode body = NODES.objectNode().put("model", "claude-sonnet-4-5").put("max_tokens", 1024);
        body.set("messages", request.path("messages"));
        if (request.hasNonNull("system")) {
            body.set("system", request.get("system"));
        }
        MessageCreateParams.Body read = read(com.anthropic.core.ObjectMappers.jsonMapper(), body,
                MessageCreateParams.Body.class, what);
        check(what, body, () -> read.validate());
        walk(read, what, body, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static <T> T read(com.fasterxml.jackson.databind.ObjectMapper mapper, JsonNode body, Class<T> type,
            String what) {
        try {
            return mapper.treeToValue(body, type);
        } catch (Exception e) {
            return fail(what + ": the SDK cannot read " + body + ": " + e);
        }
    }

    private static void check(String what, JsonNode body, Runnable validation) {
        try {
            validation.run();
        } catch (RuntimeException e) {
            fail(what + ": the SDK refuses " + body + ": " + e.getMessage());
        }
    }

    /** Every model object reachable: no unknown members, no unknown enum values. */
    private static void walk(Object o, String what, JsonNode body, Set<Object> seen) {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof Optional<?> opt) {
            opt.ifPresent(v -> walk(v, what, body, seen));
            return;
        }
        if (o instanceof Collection<?> many) {
            many.forEach(v -> walk(v, what, body, seen));
            return;
        }
        if (!isModel(o.getClass())) {
            return;
        }
        for (Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            String name = m.getName();
            if (name.equals("_additionalProperties")) {
                Map<?, ?> extra = (Map<?, ?>) invoke(m, o);
                if (extra != null && !extra.isEmpty() && !freeForm(o.getClass())) {
                    fail(what + ": members the SDK does not know " + extra.keySet() + " in " + o.getClass()
                            .getSimpleName() + " of " + body);
                }
            } else if (name.equals("known")) {
                try {
                    m.invoke(o);
                } catch (InvocationTargetException e) {
                    fail(what + ": a value the SDK does not know (" + o + ", " + o.getClass().getName() + ") in "
                            + body);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            } else if (!name.startsWith("_") && !name.equals("validate") && !name.equals("toBuilder")
                    && !name.equals("isValid") && !name.equals("value") && !name.equals("asString")
                    && !name.equals("hashCode") && !name.equals("toString") && !name.startsWith("is")) {
                Object got;
                try {
                    got = m.invoke(o);
                } catch (InvocationTargetException | IllegalAccessException e) {
                    continue; // a union's as<Variant>() of another variant, an optional member absent
                }
                walk(got, what, body, seen);
            }
        }
    }

    private static Object invoke(Method m, Object o) {
        try {
            return m.invoke(o);
        } catch (InvocationTargetException | IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An object whose members are all the caller's (a tool call's input, a schema): it declares no member of its
     * own, only its additional properties.
     */
    private static boolean freeForm(Class<?> type) {
        for (java.lang.reflect.Field f : type.getDeclaredFields()) {
            String kind = f.getType().getName();
            if (kind.equals("com.anthropic.core.JsonField") || kind.equals("com.openai.core.JsonField")
                    || kind.equals("com.anthropic.core.JsonValue") || kind.equals("com.openai.core.JsonValue")) {
                return false;
            }
        }
        return true;
    }

    private static boolean isModel(Class<?> type) {
        String name = type.getName();
        return name.startsWith("com.anthropic.models.") || name.startsWith("com.openai.models.");
    }
}
