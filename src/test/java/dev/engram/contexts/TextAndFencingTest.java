package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.InputHint;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.contexts.messages.UntrustedContent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The string rules (bytes, code points, invisible trim), the untrusted fence and input hints. */
class TextAndFencingTest {

    @Test
    void truncationCountsCodePointsAndEndsWithAnEllipsis() {
        assertEquals("", Text.truncate("abc", 0));
        assertEquals("", Text.truncate("abc", -1));
        assertEquals("abc", Text.truncate("abc", 3));
        assertEquals("ab…", Text.truncate("abcd", 3));
        assertEquals("…", Text.truncate("ab", 1));
        assertEquals("é😀…", Text.truncate("é😀xyz", 3), "a surrogate pair is one code point");
    }

    @Test
    void lengthsAreUtf8Bytes() {
        assertEquals(0, Text.utf8Length(""));
        assertEquals(3, Text.utf8Length("abc"));
        assertEquals(2, Text.utf8Length("é"));
        assertEquals(3, Text.utf8Length("—"));
        assertEquals(4, Text.utf8Length("😀"));
        assertEquals(3, Text.utf8Length("\ud800"), "a lone surrogate counts as U+FFFD");
        assertEquals(8, TokenCounter.simple().count("T1 test_tool {\"arg\": \"value\"} O1"));
        assertEquals(1, TokenCounter.simple().count("—"));
    }

    @Test
    void trimRightStripsOnlyTheInvisibleSetAtTheEnd() {
        assertEquals("  a b", Text.trimRight("  a b \t\n\r\0\f\u000b\u200b\u200c\u200d\ufeff"));
        assertEquals("a\u00a0", Text.trimRight("a\u00a0"), "a no-break space is not in the set");
        assertFalse(Text.visible("\u200b \n"));
        assertTrue(Text.visible(". "));
        assertEquals("A", Text.trimSpace("\u00a0\u2003A\u3000\n"));
    }

    @Test
    void theFenceEscapesEveryTagSpelling() {
        String wrapped = UntrustedContent.wrap("a < /Untrusted-Content> b <\tUNTRUSTED-content c </untrusted-contentx",
                "we\"b\\x");
        assertEquals("<untrusted-content source=\"we&quot;b\\\\x\">\n"
                + "a &lt; /Untrusted-Content> b &lt;\tUNTRUSTED-content c &lt;/untrusted-contentx\n"
                + "</untrusted-content>", wrapped);
        assertEquals("<untrusted-content source=\"t\">\n&lt;untrusted-content source=\"t\">\nx\n&lt;/untrusted-content>"
                + "\n</untrusted-content>", UntrustedContent.wrap(UntrustedContent.wrap("x", "t"), "t"));
        assertEquals("plain $1 \\ text", UntrustedContent.sanitize("plain $1 \\ text"));
        assertEquals("<untrusted-content source=\"a\\nb\">\nx\n</untrusted-content>",
                UntrustedContent.wrap("x", "a\nb"));
    }

    @Test
    void inputHints() {
        assertEquals("", InputHint.of("not json"));
        assertEquals("", InputHint.of("[\"path\"]"));
        assertEquals("", InputHint.of("null"));
        assertEquals("", InputHint.of(""));
        assertEquals("", InputHint.of("{\"path\": \"a\"} trailing"));
        assertEquals("a.txt", InputHint.of("{\"path\": \"a.txt\", \"url\": \"http://x\"}"));
        assertEquals("42", InputHint.of("{\"query\": 42}"));
        assertEquals("1e+06", InputHint.of("{\"query\": 1000000}"));
        assertEquals("123456", InputHint.of("{\"query\": 123456}"));
        assertEquals("0.5", InputHint.of("{\"query\": 0.5}"));
        assertEquals("1e-05", InputHint.of("{\"query\": 0.00001}"));
        assertEquals("true", InputHint.of("{\"command\": true}"));
        assertEquals("<nil>", InputHint.of("{\"file\": null}"));
        assertEquals("[a 1]", InputHint.of("{\"file\": [\"a\", 1]}"));
        assertEquals("map[a:1 b:x]", InputHint.of("{\"file\": {\"b\": \"x\", \"a\": 1}}"));
        String long61 = "p".repeat(61);
        assertEquals("p".repeat(59) + "…", InputHint.of("{\"path\": \"" + long61 + "\"}"));
        String wide = "é".repeat(40);
        assertEquals(wide, InputHint.of("{\"path\": \"" + wide + "\"}"), "80 bytes but 40 code points: kept whole");
        assertEquals("b", InputHint.of("{\"z\": \"" + long61 + "\", \"b\": \"b\", \"a\": \"\", \"c\": \"c\"}"));
        assertEquals("", InputHint.of("{\"z\": 1, \"y\": false}"));
        assertEquals("second", InputHint.of("{\"path\": \"first\", \"path\": \"second\"}"));
        assertEquals("tab\there", InputHint.of("{\"path\": \"tab\\there\"}"));
        assertEquals("é", InputHint.of("{\"path\": \"\\u00e9\"}"));
        assertEquals("", InputHint.of("{\"path\": \"\\u+0e9\"}"));
        assertEquals("", InputHint.of("{\"path\": 01}"));
        assertEquals("", InputHint.of("{\"path\": \"a\",}"));
        assertEquals("", InputHint.of("{\"path\": \"unterminated}"));
    }

    @Test
    void imagesCostAFixedAmount() {
        Message withImage = new Message("user", "describe", List.of(ContentBlock.image("AAAA", "image/png")), "",
                List.of(), List.of(), "");
        assertEquals(1 + 2 + 765 + 4, TokenCounter.simple().countMessages(List.of(withImage)),
                "the text stands in for a missing text block");
        assertEquals(1 + 2 + 85 + 4, TokenCounter.anthropic().countMessages(List.of(withImage)));
        Message textBlock = new Message("user", "ignored when a text block exists",
                List.of(ContentBlock.text("abcd"), new ContentBlock("video", "", "", "")), "", List.of(), List.of(),
                "");
        assertEquals(1 + 1 + 4, TokenCounter.simple().countMessages(List.of(textBlock)));
        Message call = new Message("assistant", "", List.of(), "hidden reasoning", List.of(),
                List.of(new ToolCall("id-not-counted", "test_tool", "{\"arg\": \"value\"}")), "");
        assertEquals(3 + 0 + 3 + 4 + 4, TokenCounter.simple().countMessages(List.of(call)));
        assertEquals(0, TokenCounter.none().countMessages(List.of(call)));
    }
}
