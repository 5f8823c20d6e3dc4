package dev.engram.contexts.tokens;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A source of token counters by name beyond the built-in ones (such as real tokenizers), found once with
 * {@link ServiceLoader} ({@code META-INF/services/dev.engram.contexts.tokens.Tokenizers}); {@link TokenCounter#named} asks
 * each in turn. A source whose class cannot be loaded is an error at first use, not skipped.
 */
public interface Tokenizers {

    /** The names this source answers to, such as {@code tiktoken/o200k_base}. */
    List<String> names();

    /** The counter called {@code name}; empty when this source has none by that name. */
    Optional<TokenCounter> counter(String name);
}
