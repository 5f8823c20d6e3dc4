package dev.engram.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.kernel.Invalid;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The real tokenizers, found by name through the core's lookup. The expected counts are published ones: tiktoken's
 * own test ({@code hello world} is [15339, 1917] in cl100k_base), OpenAI's cookbook ("tiktoken is great!" is six
 * cl100k_base tokens), and the o200k_base fixtures of tiktoken ports ({@code hello world} is [24912, 2375],
 * {@code привет мир} three tokens).
 */
class TiktokenTest {

    @ParameterizedTest(name = "{0}: \"{1}\" is {2} tokens")
    @CsvSource(delimiter = '|', value = {
        "tiktoken/cl100k_base | hello world                      | 2",
        "tiktoken/cl100k_base | tiktoken is great!               | 6",
        "tiktoken/cl100k_base | 'Hello, world! How are you today?' | 9",
        "tiktoken/o200k_base  | hello world                      | 2",
        "tiktoken/o200k_base  | привет мир                       | 3"})
    void aNamedTokenizerCountsAsTiktokenDoes(String name, String text, int tokens) {
        assertEquals(tokens, TokenCounter.named(name).count(text));
    }

    @Test
    void theEstimateStaysTheDefaultAndDiffersFromTheTokenizer() {
        assertEquals(5, TokenCounter.named("").count("привет мир"), "19 UTF-8 bytes, a token per 4 rounded up");
        assertEquals(3, TokenCounter.named("tiktoken/o200k_base").count("привет мир"));
    }

    @Test
    void messagesAreFramedAsTheEstimateFramesThemWithExactTextCounts() {
        TokenCounter cl100k = TokenCounter.named("tiktoken/cl100k_base");
        Message call = new Message("assistant", "", List.of(), "", List.of(),
                List.of(new ToolCall("c1", "hello", "hello world")), "");
        int role = cl100k.count("assistant");
        assertEquals(role + 0 + cl100k.count("hello") + 2 + 4, cl100k.countMessages(List.of(call)));
        assertEquals(cl100k.count("user") + 2 + 4, cl100k.countMessages(List.of(Message.user("hello world"))));
        assertEquals(0, cl100k.count(""));
        assertEquals(0, cl100k.count(null));
    }

    @Test
    void aSpecialTokensSpellingIsCountedAsOrdinaryText() {
        assertTrue(TokenCounter.named("tiktoken/cl100k_base").count("<|endoftext|>") > 1);
    }

    @Test
    void theLookupListsTheTokenizersAndStillRefusesOtherNames() {
        assertTrue(TokenCounter.names().containsAll(List.of("simple", "tiktoken/cl100k_base", "tiktoken/o200k_base")));
        assertSame(TokenCounter.named("tiktoken/o200k_base"), TokenCounter.named(" tiktoken/o200k_base "));
        Invalid refused = assertThrows(Invalid.class, () -> TokenCounter.named("tiktoken/p50k_base"));
        assertEquals("token-counter-unknown", refused.rule());
        assertTrue(refused.getMessage().contains("tiktoken/o200k_base"), refused.getMessage());
    }
}
