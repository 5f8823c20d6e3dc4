package dev.engram.context;

import java.util.List;

/** The reference's estimating counter: ⌈UTF-8 bytes / 4⌉ a text, a fixed cost an image, 4 tokens a message. */
final class SimpleTokenCounter implements TokenCounter {

    static final int IMAGE_TOKENS = 765;
    static final int ANTHROPIC_IMAGE_TOKENS = 85;
    static final int MESSAGE_FRAMING = 4;

    private final int imageTokens;

    SimpleTokenCounter(int imageTokens) {
        this.imageTokens = imageTokens;
    }

    @Override
    public int count(String text) {
        return (Text.utf8Length(text) + 3) / 4;
    }

    @Override
    public int countMessages(List<Message> messages) {
        int total = 0;
        for (Message message : messages) {
            total += count(message.role());
            total += contentTokens(message);
            for (ToolCall call : message.toolCalls()) {
                total += count(call.name()) + count(call.input());
            }
            total += MESSAGE_FRAMING;
        }
        return total;
    }

    private int contentTokens(Message message) {
        List<ContentBlock> blocks = message.effectiveBlocks();
        if (blocks.isEmpty()) {
            return count(message.content());
        }
        int total = 0;
        for (ContentBlock block : blocks) {
            if (block.type().equals("text")) {
                total += count(block.text());
            } else if (block.type().equals("image")) {
                total += imageTokens;
            }
        }
        return total;
    }
}
