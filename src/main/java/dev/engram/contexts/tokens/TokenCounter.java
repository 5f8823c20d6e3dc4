package dev.engram.contexts.tokens;

import dev.engram.contexts.messages.Message;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * Counts tokens of text and of messages. The built-in counter estimates (see {@link #simple()}); real tokenizers
 * come from {@link Tokenizers} found on the class path, so that the core names them without depending on them.
 * Counts are never negative.
 */
public interface TokenCounter {

    /** The built-in names {@link #named} accepts (see {@link #names()} for all). */
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
     * A counter that counts messages as the estimate does (role, content or blocks, each call's name and input, 4 a
     * message, {@code imageTokens} an image) with {@code textTokens} for each text; "" and null count 0.
     */
    static TokenCounter framed(ToIntFunction<String> textTokens, int imageTokens) {
        return new SimpleTokenCounter(imageTokens, textTokens);
    }

    /** Every name {@link #named} accepts: the built-in ones, then those of the {@link Tokenizers} found. */
    static List<String> names() {
        List<String> names = new ArrayList<>(NAMES);
        for (Tokenizers source : FoundTokenizers.SOURCES) {
            names.addAll(source.names());
        }
        return List.copyOf(names);
    }

    /**
     * The counter called {@code name}: {@code simple} (or {@code approximate}, or blank), {@code anthropic-api},
     * {@code none}, or a name a {@link Tokenizers} found on the class path offers (such as
     * {@code tiktoken/o200k_base}). Anything else is refused ({@link Invalid}) rather than silently estimated.
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
                for (Tokenizers source : FoundTokenizers.SOURCES) {
                    Optional<TokenCounter> counter = source.counter(value);
                    if (counter.isPresent()) {
                        return counter.get();
                    }
                }
                throw new Invalid("token-counter-unknown", "token_counter", "\"" + value + "\" is not a token "
                        + "counter here. Use one of " + String.join(", ", names()) + ".");
        }
    }
}
