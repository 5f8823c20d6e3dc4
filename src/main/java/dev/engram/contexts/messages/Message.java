package dev.engram.contexts.messages;

import java.util.ArrayList;
import java.util.List;

/**
 * One message of a prompt in a provider-neutral form: a {@code role} ({@code system}, {@code user},
 * {@code assistant} or {@code tool}), its text, its structured blocks, the model's reasoning, the tool calls of an
 * assistant message and the call a tool message answers. Lists are copied; null fields read as empty.
 *
 * @param content the text; when {@code contentBlocks} holds no text block, this text stands in for one
 * @param toolCallId for a {@code tool} message, the id of the call it answers; "" otherwise
 */
public record Message(String role, String content, List<ContentBlock> contentBlocks, String reasoningContent,
        List<ReasoningItem> reasoningItems, List<ToolCall> toolCalls, String toolCallId) {

    public Message {
        role = Text.orEmpty(role);
        content = Text.orEmpty(content);
        contentBlocks = contentBlocks == null ? List.of() : List.copyOf(contentBlocks);
        reasoningContent = Text.orEmpty(reasoningContent);
        reasoningItems = reasoningItems == null ? List.of() : List.copyOf(reasoningItems);
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        toolCallId = Text.orEmpty(toolCallId);
    }

    /** A message of {@code role} with text {@code content} and nothing else. */
    public static Message of(String role, String content) {
        return new Message(role, content, List.of(), "", List.of(), List.of(), "");
    }

    /** A {@code system} message. */
    public static Message system(String content) {
        return of("system", content);
    }

    /** A {@code user} message. */
    public static Message user(String content) {
        return of("user", content);
    }

    /** An {@code assistant} message without calls. */
    public static Message assistant(String content) {
        return of("assistant", content);
    }

    /** A {@code tool} message answering call {@code toolCallId}. */
    public static Message tool(String toolCallId, String content) {
        return new Message("tool", content, List.of(), "", List.of(), List.of(), toolCallId);
    }

    /** This message with its text replaced. */
    public Message withContent(String newContent) {
        return new Message(role, newContent, contentBlocks, reasoningContent, reasoningItems, toolCalls, toolCallId);
    }

    /** This message with {@code call} added to its tool calls. */
    public Message withCall(ToolCall call) {
        List<ToolCall> calls = new ArrayList<>(toolCalls);
        calls.add(call);
        return new Message(role, content, contentBlocks, reasoningContent, reasoningItems, calls, toolCallId);
    }

    /**
     * The blocks a provider would render: none when there are no blocks (the text alone is used), else the blocks,
     * with the text put first as a text block when the blocks hold none and the text is not empty.
     */
    public List<ContentBlock> effectiveBlocks() {
        if (contentBlocks.isEmpty()) {
            return List.of();
        }
        boolean hasText = contentBlocks.stream().anyMatch(b -> b.type().equals("text"));
        if (hasText || content.isEmpty()) {
            return contentBlocks;
        }
        List<ContentBlock> blocks = new ArrayList<>(contentBlocks.size() + 1);
        blocks.add(ContentBlock.text(content));
        blocks.addAll(contentBlocks);
        return List.copyOf(blocks);
    }
}
