package dev.engram.contexts.app;

import static dev.engram.contexts.app.Conversations.malformed;
import static dev.engram.contexts.app.Conversations.object;
import static dev.engram.contexts.app.Conversations.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ToolCall;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one mapping between the context core's neutral {@link Message}s and OpenAI's Chat Completions
 * {@code messages}, both ways. Written: each message in place (several system messages stay several, so a system
 * prompt's cache breaks stay apart); an assistant's calls as {@code tool_calls} with their input as the
 * {@code arguments} string ({@code "{}"} when a call has none) and {@code content} null when it says nothing; a tool
 * message with its {@code tool_call_id}; a user message with blocks as parts, an image as a {@code data:} URL.
 * Reasoning is dropped: the Chat Completions API takes none back. Read: what {@code POST /v1/compact} accepts.
 */
public final class OpenAiChatForm {

    static final String NAME = "openai-chat";
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private OpenAiChatForm() {
    }

    /** {@code messages} as Chat Completions messages, in order. */
    public static ArrayNode write(List<Message> messages) {
        ArrayNode out = NODES.arrayNode();
        messages.forEach(m -> out.add(message(m)));
        return out;
    }

    /** One message; an image outside a user message (only a prior conversation can hold one) is left out. */
    public static ObjectNode message(Message m) {
        ObjectNode out = NODES.objectNode().put("role", m.role());
        switch (m.role()) {
            case "user" -> {
                if (m.effectiveBlocks().isEmpty()) {
                    out.put("content", m.content());
                } else {
                    ArrayNode parts = out.putArray("content");
                    for (ContentBlock b : m.effectiveBlocks()) {
                        if (b.type().equals("text")) {
                            parts.addObject().put("type", "text").put("text", b.text());
                        } else if (b.type().equals("image") && !b.imageB64().isEmpty()) {
                            parts.addObject().put("type", "image_url").putObject("image_url")
                                    .put("url", "data:" + b.mediaType() + ";base64," + b.imageB64());
                        }
                    }
                }
            }
            case "assistant" -> {
                String text = textOf(m);
                if (text.isEmpty() && !m.toolCalls().isEmpty()) {
                    out.putNull("content");
                } else {
                    out.put("content", text);
                }
                if (!m.toolCalls().isEmpty()) {
                    ArrayNode calls = out.putArray("tool_calls");
                    for (ToolCall call : m.toolCalls()) {
                        ObjectNode c = calls.addObject().put("id", call.id()).put("type", "function");
                        c.putObject("function").put("name", call.name())
                                .put("arguments", call.input().isEmpty() ? "{}" : call.input());
                    }
                }
            }
            case "tool" -> out.put("tool_call_id", m.toolCallId()).put("content", textOf(m));
            default -> out.put("content", textOf(m));
        }
        return out;
    }

    /** The text of a message that takes no images: its content, or its text blocks joined by newlines. */
    static String textOf(Message m) {
        List<ContentBlock> blocks = m.effectiveBlocks();
        return blocks.isEmpty() ? m.content() : blocks.stream().filter(b -> b.type().equals("text"))
                .map(ContentBlock::text).collect(Collectors.joining("\n"));
    }

    /** Chat Completions messages: roles system, developer, user, assistant and tool; content a string or parts. */
    public static Conversations.Read read(List<JsonNode> messages) {
        List<Message> read = new ArrayList<>(messages.size());
        Map<Message, JsonNode> sent = new IdentityHashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            String at = "messages." + i;
            JsonNode m = object(messages.get(i), at);
            String role = text(m, "role", at, true);
            if (!ROLES.contains(role)) {
                throw malformed(at + ".role", "Message " + i + " has role \"" + role + "\"; an openai-chat message "
                        + "is system, developer, user, assistant or tool.");
            }
            String content = "";
            List<ContentBlock> blocks = new ArrayList<>();
            JsonNode c = m.get("content");
            if (c != null && c.isTextual()) {
                content = c.asText();
            } else if (c != null && c.isArray()) {
                for (int j = 0; j < c.size(); j++) {
                    blocks.add(part(c.get(j), at + ".content." + j));
                }
            } else if (c != null && !c.isNull()) {
                throw malformed(at + ".content", "Message " + i + "'s content must be a string, an array of parts "
                        + "or null.");
            }
            List<ToolCall> calls = new ArrayList<>();
            JsonNode tc = m.get("tool_calls");
            if (tc != null && !tc.isNull()) {
                if (!tc.isArray()) {
                    throw malformed(at + ".tool_calls", "Message " + i + "'s tool_calls must be an array.");
                }
                for (int j = 0; j < tc.size(); j++) {
                    String cat = at + ".tool_calls." + j;
                    JsonNode call = object(tc.get(j), cat);
                    JsonNode function = object(call.get("function"), cat + ".function");
                    calls.add(new ToolCall(text(call, "id", cat, true), text(function, "name", cat + ".function", true),
                            text(function, "arguments", cat + ".function", false)));
                }
            }
            String callId = role.equals("tool") ? text(m, "tool_call_id", at, true) : "";
            Message message = new Message(role, content, blocks, "", List.of(), calls, callId);
            read.add(message);
            sent.put(message, m);
        }
        return new Conversations.Read(List.copyOf(read), sent);
    }

    private static ContentBlock part(JsonNode node, String at) {
        JsonNode part = object(node, at);
        String type = text(part, "type", at, true);
        switch (type) {
            case "text":
                return ContentBlock.text(text(part, "text", at, true));
            case "image_url":
                return image(text(object(part.get("image_url"), at + ".image_url"), "url", at + ".image_url", true));
            default:
                return new ContentBlock(type, "", "", "");
        }
    }

    /** An image from a URL: its data and media type when it is a {@code data:} URL, else an image without data. */
    private static ContentBlock image(String url) {
        if (url.startsWith("data:") && url.contains(";base64,")) {
            int comma = url.indexOf(";base64,");
            return ContentBlock.image(url.substring(comma + 8), url.substring(5, comma));
        }
        return ContentBlock.image("", "");
    }
}
