package dev.engram.contexts.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.messages.Message;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A conversation in a provider's JSON (OpenAI chat messages, Anthropic messages) read into the context core's
 * {@link Message}s for counting and summarizing ({@link OpenAiChatForm}, {@link AnthropicForm}), and written back: a
 * message compaction kept is written as it was sent, byte for byte (members the core does not model included); only
 * the summaries and notes compaction made are new. A malformed message is refused ({@link Invalid}, rule
 * {@code message-malformed}) naming its member.
 */
public final class Conversations {

    public static final List<String> FORMATS = List.of(OpenAiChatForm.NAME, AnthropicForm.NAME);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * The messages read, and the JSON each came from (by identity: equal messages stay apart; the messages read from
     * one Anthropic turn share it).
     */
    public record Read(List<Message> messages, Map<Message, JsonNode> sent) {
    }

    private Conversations() {
    }

    /** {@code result} as OpenAI chat messages: each kept message as sent, a new one as {@link OpenAiChatForm} does. */
    public static ArrayNode openAiReply(List<Message> result, Read read) {
        ArrayNode out = NODES.arrayNode();
        for (Message m : result) {
            JsonNode sent = read.sent().get(m);
            out.add(sent != null ? sent : OpenAiChatForm.message(m));
        }
        return out;
    }

    /**
     * {@code result} as an Anthropic request's {@code system} and {@code messages}: the leading system messages
     * (the sent system, the summaries and notes before any turn) make {@code system}, as it was sent when it is
     * alone, else as one text joined by blank lines (text blocks, the kept ones as sent, when the sent system was
     * blocks); a later summary or note becomes a user turn of its text block (the API joins consecutive turns of one
     * role). The messages read from one turn that stand together in {@code result} are answered as that turn: as it
     * was sent when all of them are there, else with only their blocks (the {@code tool_result} blocks of the kept
     * tool messages, the other blocks when the turn's other message is kept), so a cut between a turn's results and
     * its text never brings back a result whose call is gone.
     */
    public static ObjectNode anthropicReply(List<Message> result, Read read) {
        Map<JsonNode, Integer> readFrom = new IdentityHashMap<>();
        read.messages().forEach(m -> readFrom.merge(read.sent().get(m), 1, Integer::sum));
        List<JsonNode> system = new ArrayList<>();
        ArrayNode messages = NODES.arrayNode();
        for (int i = 0; i < result.size(); i++) {
            Message m = result.get(i);
            JsonNode sent = read.sent().get(m);
            boolean leading = messages.isEmpty() && m.role().equals("system");
            if (leading) {
                system.add(sent != null ? sent : NODES.textNode(m.content()));
                continue;
            }
            if (sent == null) {
                messages.addObject().put("role", "user").set("content", AnthropicForm.blocks(m));
                continue;
            }
            List<Message> together = new ArrayList<>(List.of(m));
            while (i + 1 < result.size() && read.sent().get(result.get(i + 1)) == sent) {
                together.add(result.get(++i));
            }
            JsonNode turn = together.size() == readFrom.get(sent) ? sent : part(sent, together);
            if (turn != null) {
                messages.add(turn);
            }
        }
        ObjectNode out = NODES.objectNode();
        if (system.stream().anyMatch(JsonNode::isContainerNode)) {
            ArrayNode blocks = out.putArray("system");
            for (JsonNode part : system) {
                if (part.isObject()) {
                    blocks.add(part);
                } else {
                    blocks.addObject().put("type", "text").put("text", part.asText());
                }
            }
        } else if (system.size() == 1) {
            out.set("system", system.get(0));
        } else if (!system.isEmpty()) {
            List<String> texts = new ArrayList<>();
            system.forEach(part -> texts.add(part.asText()));
            out.put("system", String.join("\n\n", texts));
        }
        out.set("messages", messages);
        return out;
    }

    /**
     * The part of the sent turn {@code sent} that {@code kept} (messages read from it) stand for: its
     * {@code tool_result} blocks answering kept tool messages, and its other blocks when its other message is kept;
     * null when nothing is left.
     */
    private static JsonNode part(JsonNode sent, List<Message> kept) {
        Set<String> results = new java.util.HashSet<>();
        boolean rest = false;
        for (Message m : kept) {
            if (m.role().equals("tool")) {
                results.add(m.toolCallId());
            } else {
                rest = true;
            }
        }
        ArrayNode content = NODES.arrayNode();
        for (JsonNode block : sent.path("content")) {
            boolean result = block.path("type").asText().equals("tool_result");
            if (result ? results.contains(block.path("tool_use_id").asText()) : rest) {
                content.add(block);
            }
        }
        if (content.isEmpty()) {
            return null;
        }
        ObjectNode turn = ((ObjectNode) sent).deepCopy();
        turn.set("content", content);
        return turn;
    }

    static JsonNode object(JsonNode node, String at) {
        if (node == null || !node.isObject()) {
            throw malformed(at, "Member " + at + " must be an object.");
        }
        return node;
    }

    static String text(JsonNode node, String member, String at, boolean required) {
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

    static Invalid malformed(String field, String detail) {
        return new Invalid("message-malformed", field, detail + " Fix that message and send the conversation again.");
    }
}
