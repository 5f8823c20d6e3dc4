package dev.engram.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.context.ContentBlock;
import dev.engram.context.Message;
import dev.engram.context.ToolCall;
import dev.engram.memory.Invalid;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A conversation in a provider's JSON (OpenAI chat messages, Anthropic messages) read into the context core's
 * {@link Message}s for counting and summarizing, and written back: a message compaction kept is written as it was
 * sent, byte for byte (members the core does not model included); only the summaries and notes compaction made are
 * new. A malformed message is refused ({@link Invalid}, rule {@code message-malformed}) naming its member.
 */
final class Conversations {

    static final List<String> FORMATS = List.of("openai-chat", "anthropic");
    private static final Set<String> OPENAI_ROLES = Set.of("system", "developer", "user", "assistant", "tool");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The messages read, and the JSON each came from (by identity: equal messages stay apart). */
    record Read(List<Message> messages, Map<Message, JsonNode> sent) {
    }

    private Conversations() {
    }

    /** OpenAI chat messages: roles system, developer, user, assistant and tool; content a string or parts. */
    static Read openAi(List<JsonNode> messages) {
        List<Message> read = new ArrayList<>(messages.size());
        Map<Message, JsonNode> sent = new IdentityHashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            String at = "messages." + i;
            JsonNode m = object(messages.get(i), at);
            String role = text(m, "role", at, true);
            if (!OPENAI_ROLES.contains(role)) {
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
                    blocks.add(openAiPart(c.get(j), at + ".content." + j));
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
        return new Read(List.copyOf(read), sent);
    }

    private static ContentBlock openAiPart(JsonNode node, String at) {
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

    /**
     * Anthropic messages (roles user and assistant; content a string or blocks) after the top-level {@code system}
     * (a string or text blocks), which is read as a leading {@code system} message so that it is counted and kept as
     * openai-chat's system message is.
     */
    static Read anthropic(JsonNode system, List<JsonNode> messages) {
        List<Message> read = new ArrayList<>(messages.size() + 1);
        Map<Message, JsonNode> sent = new IdentityHashMap<>();
        if (system != null && !system.isNull()) {
            Message first = Message.system(systemText(system));
            read.add(first);
            sent.put(first, system);
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
            Message message;
            if (c != null && c.isTextual()) {
                message = Message.of(role, c.asText());
            } else if (c != null && c.isArray()) {
                message = anthropicBlocks(role, c, at + ".content");
            } else {
                throw malformed(at + ".content", "Message " + i + "'s content must be a string or an array of "
                        + "content blocks.");
            }
            read.add(message);
            sent.put(message, m);
        }
        return new Read(List.copyOf(read), sent);
    }

    private static String systemText(JsonNode system) {
        if (system.isTextual()) {
            return system.asText();
        }
        if (!system.isArray()) {
            throw malformed("system", "system must be a string or an array of text blocks.");
        }
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < system.size(); j++) {
            JsonNode block = object(system.get(j), "system." + j);
            if (!text(block, "type", "system." + j, true).equals("text")) {
                throw malformed("system." + j + ".type", "system holds text blocks only.");
            }
            text.append(j == 0 ? "" : "\n").append(text(block, "text", "system." + j, true));
        }
        return text.toString();
    }

    private static Message anthropicBlocks(String role, JsonNode content, String at) {
        List<ContentBlock> blocks = new ArrayList<>();
        List<ToolCall> calls = new ArrayList<>();
        StringBuilder reasoning = new StringBuilder();
        for (int j = 0; j < content.size(); j++) {
            String bat = at + "." + j;
            JsonNode block = object(content.get(j), bat);
            String type = text(block, "type", bat, true);
            switch (type) {
                case "text" -> blocks.add(ContentBlock.text(text(block, "text", bat, true)));
                case "image" -> blocks.add(anthropicImage(block, bat));
                case "tool_use" -> {
                    JsonNode input = block.get("input");
                    calls.add(new ToolCall(text(block, "id", bat, true), text(block, "name", bat, true),
                            input == null ? "{}" : input.toString()));
                }
                case "tool_result" -> {
                    text(block, "tool_use_id", bat, true);
                    JsonNode result = block.get("content");
                    if (result != null && result.isTextual()) {
                        blocks.add(ContentBlock.text(result.asText()));
                    } else if (result != null && result.isArray()) {
                        for (int k = 0; k < result.size(); k++) {
                            String rat = bat + ".content." + k;
                            JsonNode inner = object(result.get(k), rat);
                            String innerType = text(inner, "type", rat, true);
                            blocks.add(innerType.equals("text") ? ContentBlock.text(text(inner, "text", rat, true))
                                    : innerType.equals("image") ? anthropicImage(inner, rat)
                                    : new ContentBlock(innerType, "", "", ""));
                        }
                    } else if (result != null && !result.isNull()) {
                        throw malformed(bat + ".content", "A tool_result's content must be a string or an array "
                                + "of blocks.");
                    }
                }
                case "thinking" -> reasoning.append(text(block, "thinking", bat, false));
                default -> blocks.add(new ContentBlock(type, "", "", ""));
            }
        }
        return new Message(role, "", blocks, reasoning.toString(), List.of(), calls, "");
    }

    private static ContentBlock anthropicImage(JsonNode block, String at) {
        JsonNode source = object(block.get("source"), at + ".source");
        if ("base64".equals(source.path("type").asText())) {
            return ContentBlock.image(text(source, "data", at + ".source", true),
                    text(source, "media_type", at + ".source", false));
        }
        return ContentBlock.image("", "");
    }

    /** {@code result} as OpenAI chat messages: each kept message as sent, a system message for each new one. */
    static ArrayNode openAiReply(List<Message> result, Read read) {
        ArrayNode out = NODES.arrayNode();
        for (Message m : result) {
            JsonNode sent = read.sent().get(m);
            out.add(sent != null ? sent : NODES.objectNode().put("role", "system").put("content", m.content()));
        }
        return out;
    }

    /**
     * {@code result} as an Anthropic request's {@code system} and {@code messages}: the leading system messages
     * (the sent system, the summaries and notes before any turn) make {@code system}, as it was sent when it is
     * alone, else as one text joined by blank lines (text blocks when the sent system was blocks); a later summary or
     * note becomes a user turn of one text block (the API joins consecutive turns of one role).
     */
    static ObjectNode anthropicReply(List<Message> result, Read read) {
        List<JsonNode> system = new ArrayList<>();
        ArrayNode messages = NODES.arrayNode();
        for (Message m : result) {
            JsonNode sent = read.sent().get(m);
            boolean leading = messages.isEmpty() && m.role().equals("system");
            if (leading) {
                system.add(sent != null ? sent : NODES.textNode(m.content()));
            } else if (sent != null) {
                messages.add(sent);
            } else {
                ObjectNode turn = messages.addObject().put("role", "user");
                turn.putArray("content").addObject().put("type", "text").put("text", m.content());
            }
        }
        ObjectNode out = NODES.objectNode();
        if (system.size() == 1) {
            out.set("system", system.get(0));
        } else if (system.stream().anyMatch(JsonNode::isArray)) {
            ArrayNode blocks = out.putArray("system");
            for (JsonNode part : system) {
                if (part.isArray()) {
                    blocks.addAll((ArrayNode) part);
                } else {
                    blocks.addObject().put("type", "text").put("text", part.asText());
                }
            }
        } else if (!system.isEmpty()) {
            List<String> texts = new ArrayList<>();
            system.forEach(part -> texts.add(part.asText()));
            out.put("system", String.join("\n\n", texts));
        }
        out.set("messages", messages);
        return out;
    }

    private static JsonNode object(JsonNode node, String at) {
        if (node == null || !node.isObject()) {
            throw malformed(at, "Member " + at + " must be an object.");
        }
        return node;
    }

    private static String text(JsonNode node, String member, String at, boolean required) {
        JsonNode value = node.get(member);
        if (value == null || value.isNull()) {
            if (required) {
                throw malformed(at + "." + member, "Member " + at + "." + member + " is missing; it is a string.");
            }
            return "";
        }
        if (!value.isTextual()) {
            throw malformed(at + "." + member, "Member " + at + "." + member + " must be a string.");
        }
        return value.asText();
    }

    private static Invalid malformed(String field, String detail) {
        return new Invalid("message-malformed", field, detail + " Fix that message and send the conversation again.");
    }
}
