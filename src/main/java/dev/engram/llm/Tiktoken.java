package dev.engram.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.tokens.Tokenizers;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Exact token counts with OpenAI's tokenizers (jtokkit): {@code tiktoken/cl100k_base} (GPT-4, GPT-3.5) and
 * {@code tiktoken/o200k_base} (GPT-4o, o-series). Text is counted as ordinary text: a special token's spelling
 * ({@code <|endoftext|>}) counts as the characters it is made of. Messages are framed as the estimate frames them
 * (4 tokens a message, 765 an image), so only the text counts are exact. Found by {@link TokenCounter#named}
 * through {@code META-INF/services}.
 */
public final class Tiktoken implements Tokenizers {

    /** The names offered, each with its encoding. */
    static final Map<String, EncodingType> ENCODINGS = Map.of(
            "tiktoken/cl100k_base", EncodingType.CL100K_BASE,
            "tiktoken/o200k_base", EncodingType.O200K_BASE);

    private static final int IMAGE_TOKENS = 765;

    @Override
    public List<String> names() {
        return List.of("tiktoken/cl100k_base", "tiktoken/o200k_base");
    }

    @Override
    public Optional<TokenCounter> counter(String name) {
        EncodingType type = ENCODINGS.get(name);
        return type == null ? Optional.empty() : Optional.of(Loaded.COUNTERS.get(type));
    }

    /** The encodings, read once at first use (a few megabytes of ranks each). */
    private static final class Loaded {

        static final Map<EncodingType, TokenCounter> COUNTERS = load();

        private static Map<EncodingType, TokenCounter> load() {
            EncodingRegistry registry = Encodings.newLazyEncodingRegistry();
            Encoding cl100k = registry.getEncoding(EncodingType.CL100K_BASE);
            Encoding o200k = registry.getEncoding(EncodingType.O200K_BASE);
            return Map.of(EncodingType.CL100K_BASE, TokenCounter.framed(cl100k::countTokensOrdinary, IMAGE_TOKENS),
                    EncodingType.O200K_BASE, TokenCounter.framed(o200k::countTokensOrdinary, IMAGE_TOKENS));
        }
    }
}
