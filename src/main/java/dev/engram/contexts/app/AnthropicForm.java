package dev.engram.contexts.app;

import static dev.engram.contexts.app.Conversations.malformed;
import static dev.engram.contexts.app.Conversations.object;
import static dev.engram.contexts.app.Conversations.text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.kernel.Sha256;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one mapping between the context core's neutral {@link Message}s and Anthropic's Messages API
 * ({@code system} and {@code messages}), both ways.
 *
 * <p>Written: the system messages before the first other message become {@code system}, one text block each (a
 * system prompt's cache breaks stay apart, for a caller to mark with {@code cache_control}); a later system message
 * (the plan after the task, a compaction's summary or note) becomes a user text block where it stands. An assistant
 * message is its text and a {@code tool_use} block per call, its input as an object; a tool message is a
 * {@code tool_result} block in a user turn; an image a base64 {@code image} block. Consecutive messages of one role
 * make one turn, so user and assistant alternate, and a user turn's {@code tool_result} blocks come before its other
 * blocks. Reasoning is dropped (a thinking block needs the signature the model gave, which a step does not keep); an
 * empty text is left out, as the API refuses empty text blocks; tool call ids are written as the API takes them,
 * distinct ids staying distinct ({@link #callId}).
 *
 * <p>Read: what {@code POST /v1/compact} accepts; {@code system} (a string, or one system message per text block), a
 * user turn's {@code tool_result} blocks as tool messages and its other blocks as one user message after them.
 */
public final class AnthropicForm {

    static final String NAME = "anthropic";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper PLAIN = new ObjectMapper();

    private AnthropicForm() {
    }

    /** {@code messages} as a request's {@code system} (left out when there is none) and {@code messages}. */
    public static ObjectNode write(List<Message> messages) {
        ArrayNode system = NODES.arrayNode();
        List<ObjectNode> turns = new ArrayList<>();
        boolean leading = true;
        for (Message m : messages) {
            if (leading && m.role().equals("system")) {
                String text = OpenAiChatForm.textOf(m);
                if (!text.isEmpty()) {
                    system.addObject().put("type", "text").put("text", text);
                }
                continue;
            }
            leading = false;
            ArrayNode blocks = blocks(m);
            if (blocks.isEmpty()) {
                continue;
            }
            String role = m.role().equals("assistant") ? "assistant" : "user";
            ObjectNode last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
            if (last != null && last.get("role").asText().equals(role)) {
                ((ArrayNode) last.get("content")).addAll(blocks);
            } else {
                ObjectNode turn = NODES.objectNode().put("role", role);
                turn.set("content", blocks);
                turns.add(turn);
            }
        }
        ObjectNode out = NODES.objectNode();
        if (!system.isEmpty()) {
            out.set("system", system);
        }
        ArrayNode list = out.putArray("messages");
        for (ObjectNode turn : turns) {
            list.add(turn.get("role").asText().equals("user") ? resultsFirst(turn) : turn);
        }
        return out;
    }

    /** The content blocks of one message in a turn of its role (a system or tool message is in a user turn). */
    static ArrayNode blocks(Message m) {
        ArrayNode out = NODES.arrayNode();
        switch (m.role()) {
            case "assistant" -> {
                addText(out, OpenAiChatForm.textOf(m));
                for (ToolCall call : m.toolCalls()) {
                    out.addObject().put("type", "tool_use").put("id", callId(call.id())).put("name", call.name())
                            .set("input", input(call.input()));
                }
            }
            case "tool" -> {
                ObjectNode result = out.addObject().put("type", "tool_result").put("tool_use_id",
                        callId(m.toolCallId()));
                boolean images = m.effectiveBlocks().stream().anyMatch(b -> b.type().equals("image"));
                if (images) {
                    result.set("content", content(m.effectiveBlocks()));
                } else if (!OpenAiChatForm.textOf(m).isEmpty()) {
                    result.put("content", OpenAiChatForm.textOf(m));
                }
            }
            case "user" -> {
                if (m.effectiveBlocks().isEmpty()) {
                    addText(out, m.content());
                } else {
                    out.addAll(content(m.effectiveBlocks()));
                }
            }
            default -> addText(out, OpenAiChatForm.textOf(m));
        }
        return out;
    }

    private static ArrayNode content(List<ContentBlock> blocks) {
        ArrayNode out = NODES.arrayNode();
        for (ContentBlock b : blocks) {
            if (b.type().equals("text")) {
                addText(out, b.text());
            } else if (b.type().equals("image") && !b.imageB64().isEmpty()) {
                out.addObject().put("type", "image").putObject("source").put("type", "base64")
                        .put("media_type", b.mediaType()).put("data", b.imageB64());
            }
        }
        return out;
    }

    private static void addText(ArrayNode out, String text) {
        if (!text.isEmpty()) {
            out.addObject().put("type", "text").put("text", text);
        }
    }

    /** The turn with its {@code tool_result} blocks first, each part in its order, as the API requires. */
    private static ObjectNode resultsFirst(ObjectNode turn) {
        ArrayNode sorted = NODES.arrayNode();
        for (JsonNode b : turn.get("content")) {
            if (b.path("type").asText().equals("tool_result")) {
                sorted.add(b);
            }
        }
        for (JsonNode b : turn.get("content")) {
            if (!b.path("type").asText().equals("tool_result")) {
                sorted.add(b);
            }
        }
        turn.set("content", sorted);
        return turn;
    }

    /** A tool input as the object the API takes: {} when there is none, another JSON value under {@code input}. */
    private static JsonNode input(String json) {
        if (json.isEmpty()) {
            return NODES.objectNode();
        }
        try {
            JsonNode value = PLAIN.readTree(json);
            return value != null && value.isObject() ? value : NODES.objectNode().set("input", value);
        } catch (JsonProcessingException notJson) {
            return NODES.objectNode().put("input", json);
        }
    }

    /** The longest call id written. */
    static final int MAX_CALL_ID = 64;
    private static final java.util.regex.Pattern CALL_ID = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /**
     * A call id as the API takes it ({@code [A-Za-z0-9_-]}), the same for a call and its result, and distinct for
     * distinct ids: an id the API takes is written as it is, unless it starts with {@code ENC-} or {@code ENH-};
     * another is {@code ENC-} and the id with each character but a letter or digit as {@code _HEX-} (its code
     * point in hexadecimal), which no two ids share; one longer than 64 characters then is {@code ENH-}, its first
     * 43 characters, {@code -} and 16 hexadecimal digits of the SHA-256 of the id.
     */
    public static String callId(String id) {
        if (CALL_ID.matcher(id).matches() && !id.startsWith("ENC-") && !id.startsWith("ENH-")) {
            return id;
        }
        StringBuilder out = new StringBuilder("ENC-");
        id.codePoints().forEach(c -> {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                out.appendCodePoint(c);
            } else {
                out.append('_').append(Integer.toHexString(c)).append('-');
            }
        });
        if (out.length() <= MAX_CALL_ID) {
            return out.toString();
        }
        String hash = Sha256.hex(id).substring(0, 16);
        return "ENH-" + out.substring(4, 4 + MAX_CALL_ID - 4 - 17) + "-" + hash;
    }

    /**
     * Anthropic messages (roles user and assistant; content a string or blocks) after the top-level {@code system}
     * (a string: one system message; text blocks: one system message each), so that it is counted and kept as
     * openai-chat's system messages are. A user turn's {@code tool_result} blocks are read as tool messages (with the
     * {@code tool_use_id} they answer) and its other blocks as one user message after them; all of them come from,
     * and are answered as, that one turn.
     */
    public static Conversations.Read read(JsonNode system, List<JsonNode> messages) {
        List<Message> read = new ArrayList<>(messages.size() + 1);
        Map<Message, JsonNode> sent = new IdentityHashMap<>();
        if (system != null && !system.isNull()) {
            readSystem(system, read, sent);
        }
        for (int i = 0; i < messages.size(); i++) {
            String at = "messages." + i;
            JsonNode m = object(messages.get(i), at);
            String role = text(m, "role", at, true);
            if (!role.equals("user") && !role.equals("assistant")) {
                throw malformed(at + ".role", "Message " + i + " has role \"" + role + "\"; an anthropic message is "
                        + "user or assistant (the system prompt is the top-level \"system\").");
            }
            JsonNode c = m.get("content");
            List<Message> these;
            if (c != null && c.isTextual()) {
                these = List.of(Message.of(role, c.asText()));
            } else if (c != null && c.isArray()) {
                these = turn(role, c, at + ".content");
            } else {
                throw malformed(at + ".content", "Message " + i + "'s content must be a string or an array of "
                        + "content blocks.");
            }
            for (Message message : these) {
                read.add(message);
                sent.put(message, m);
            }
        }
        return new Conversations.Read(List.copyOf(read), sent);
    }

    private static void readSystem(JsonNode system, List<Message> read, Map<Message, JsonNode> sent) {
        if (system.isTextual()) {
            Message first = Message.system(system.asText());
            read.add(first);
            sent.put(first, system);
            return;
        }
        if (!system.isArray()) {
            throw malformed("system", "system must be a string or an array of text blocks.");
        }
        for (int j = 0; j < system.size(); j++) {
            JsonNode block = object(system.get(j), "system." + j);
            if (!text(block, "type", "system." + j, true).equals("text")) {
                throw malformed("system." + j + ".type", "system holds text blocks only.");
            }
            Message part = Message.system(text(block, "text", "system." + j, true));
            read.add(part);
            sent.put(part, block);
        }
    }

    /** One turn's messages: a tool message per {@code tool_result} block, then the rest as one message of role. */
    private static List<Message> turn(String role, JsonNode content, String at) {
        List<Message> tools = new ArrayList<>();
        List<ContentBlock> blocks = new ArrayList<>();
        List<ToolCall> calls = new ArrayList<>();
        StringBuilder reasoning = new StringBuilder();
        boolean rest = false;
        for (int j = 0; j < content.size(); j++) {
            String bat = at + "." + j;
            JsonNode block = object(content.get(j), bat);
            String type = text(block, "type", bat, true);
            if (!type.equals("tool_result")) {
                rest = true;
            }
            switch (type) {
                case "text" -> blocks.add(ContentBlock.text(text(block, "text", bat, true)));
                case "image" -> blocks.add(image(block, bat));
                case "tool_use" -> {
                    JsonNode input = block.get("input");
                    calls.add(new ToolCall(text(block, "id", bat, true), text(block, "name", bat, true),
                            input == null ? "{}" : input.toString()));
                }
                case "tool_result" -> tools.add(result(block, bat));
                case "thinking" -> reasoning.append(text(block, "thinking", bat, false));
                default -> blocks.add(new ContentBlock(type, "", "", ""));
            }
        }
        if (rest || tools.isEmpty()) {
            tools.add(new Message(role, "", blocks, reasoning.toString(), List.of(), calls, ""));
        }
        return tools;
    }

    /** A {@code tool_result} block as a tool message: a string content as its text, blocks as its blocks. */
    private static Message result(JsonNode block, String at) {
        String callId = text(block, "tool_use_id", at, true);
        JsonNode result = block.get("content");
        if (result == null || result.isNull()) {
            return Message.tool(callId, "");
        }
        if (result.isTextual()) {
            return Message.tool(callId, result.asText());
        }
        if (!result.isArray()) {
            throw malformed(at + ".content", "A tool_result's content must be a string or an array of blocks.");
        }
        List<ContentBlock> blocks = new ArrayList<>();
        for (int k = 0; k < result.size(); k++) {
            String rat = at + ".content." + k;
            JsonNode inner = object(result.get(k), rat);
            String innerType = text(inner, "type", rat, true);
            blocks.add(innerType.equals("text") ? ContentBlock.text(text(inner, "text", rat, true))
                    : innerType.equals("image") ? image(inner, rat) : new ContentBlock(innerType, "", "", ""));
        }
        return new Message("tool", "", blocks, "", List.of(), List.of(), callId);
    }

    private static ContentBlock image(JsonNode block, String at) {
        JsonNode source = object(block.get("source"), at + ".source");
        if ("base64".equals(source.path("type").asText())) {
            return ContentBlock.image(text(source, "data", at + ".source", true),
                    text(source, "media_type", at + ".source", false));
        }
        return ContentBlock.image("", "");
    }
}
