package dev.engram.context;

import dev.engram.memory.Invalid;
import java.util.List;

/**
 * Counts tokens of text and of messages. The built-in counter estimates (see {@link #simple()}); a real tokenizer
 * can be put behind this interface later. Counts are never negative.
 */
public interface TokenCounter {

    /** The names {@link #named} accepts. */
    List<String> NAMES = List.of("simple", "approximate", "anthropic-api", "none");

    /** The tokens of {@code text}; 0 for "" or null. */
    int count(String text);

    /** The tokens of {@code messages}: role, content (or blocks), each call's name and input, plus framing. */
    int countMessages(List<Message> messages);

    /** The reference's estimate: a token per 4 UTF-8 bytes rounded up, an image 765 tokens, 4 per message. */
    static TokenCounter simple() {
        return new SimpleTokenCounter(SimpleTokenCounter.IMAGE_TOKENS);
    }

    /** The same estimate with Anthropic's image cost (85 tokens an image). */
    static TokenCounter anthropic() {
        return new SimpleTokenCounter(SimpleTokenCounter.ANTHROPIC_IMAGE_TOKENS);
    }

    /** A counter that counts nothing: fill stays 0 and compaction never triggers (the reference's nil tracker). */
    static TokenCounter none() {
        return NoTokens.INSTANCE;
    }

    /**
     * The counter called {@code name}: {@code simple} (or {@code approximate}, or blank), {@code anthropic-api}
     * or {@code none}. Anything else, tokenizers such as {@code tiktoken/o200k_base} included, is refused
     * ({@link Invalid}) rather than silently estimated.
     */
    static TokenCounter named(String name) {
        String value = name == null ? "" : name.strip();
        switch (value) {
            case "", "simple", "approximate":
                return simple();
            case "anthropic-api":
                return anthropic();
            case "none":
                return none();
            default:
                throw new Invalid("token-counter-unknown", "token_counter", "\"" + value + "\" is not a token "
                        + "counter here. Use one of " + String.join(", ", NAMES) + "; real tokenizers are not "
                        + "available yet.");
        }
    }
}
