package dev.engram.contexts.tokens;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.messages.ToolCall;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The reference's way of counting messages (role, content or blocks, each call's name and input, 4 tokens a message,
 * a fixed cost an image) over a count of text: by default its estimate, ⌈UTF-8 bytes / 4⌉.
 */
final class SimpleTokenCounter implements TokenCounter {

    static final int IMAGE_TOKENS = 765;
    static final int ANTHROPIC_IMAGE_TOKENS = 85;
    static final int MESSAGE_FRAMING = 4;

    private final int imageTokens;
    private final ToIntFunction<String> textTokens;

    SimpleTokenCounter(int imageTokens) {
        this(imageTokens, text -> (Text.utf8Length(text) + 3) / 4);
    }

    SimpleTokenCounter(int imageTokens, ToIntFunction<String> textTokens) {
        this.imageTokens = imageTokens;
        this.textTokens = textTokens;
    }

    @Override
    public int count(String text) {
        return text == null || text.isEmpty() ? 0 : Math.max(0, textTokens.applyAsInt(text));
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
