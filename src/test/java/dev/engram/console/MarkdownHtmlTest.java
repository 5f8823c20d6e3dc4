package dev.engram.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Agents' Markdown as HTML: formatting kept, nothing that runs or loads anything. */
class MarkdownHtmlTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<svg onload=alert(1)><circle r=1></svg>",
        "<iframe src=\"https://evil.example\"></iframe>",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](  javascript:alert(1))",
        "<javascript:alert(1)>",
        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "![x](https://tracker.example/pixel.png)",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<form action=\"https://evil.example\"><input name=a></form>",
        "[x]: javascript:alert(1)\n\n[click][x]",
        "<details open ontoggle=alert(1)>x</details>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "```\n</code></pre><script>alert(1)</script>\n```",
        "<<script>script>alert(1)<</script>/script>",
        "[into the console](/console/keys)",
        "[protocol-relative](//evil.example/x)",
    })
    void nothingThatRunsOrLoadsSurvives(String markdown) {
        String html = MarkdownHtml.of(markdown);
        java.util.regex.Matcher tags = TAG.matcher(html);
        while (tags.find()) {
            String name = tags.group(1).toLowerCase(Locale.ROOT);
            assertTrue(ALLOWED.contains(name), "tag " + name + " in " + html);
            java.util.regex.Matcher attributes = ATTRIBUTE.matcher(tags.group(2));
            while (attributes.find()) {
                String attribute = attributes.group(1).toLowerCase(Locale.ROOT);
                assertTrue(attribute.equals("href") || attribute.equals("rel"), attribute + " in " + html);
                if (attribute.equals("href")) {
                    assertTrue(attributes.group(2).matches("(?i)(https?:|mailto:).*"), "href in " + html);
                }
            }
        }
    }

    private static final java.util.regex.Pattern TAG = java.util.regex.Pattern.compile("<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>");
    private static final java.util.regex.Pattern ATTRIBUTE = java.util.regex.Pattern.compile(
            "([^\\s=\"'/>]+)\\s*=\\s*\"([^\"]*)\"");
    private static final java.util.Set<String> ALLOWED = java.util.Set.of("p", "h1", "h2", "h3", "h4", "h5", "h6",
            "strong", "em", "b", "i", "code", "pre", "ul", "ol", "li", "blockquote", "a", "hr", "br", "table",
            "thead", "tbody", "tr", "th", "td", "del", "s", "u", "sub", "sup", "tt", "strike", "big", "small");

    @Test
    void formattingIsKept() {
        String html = MarkdownHtml.of("# Title\n\n**bold** and `code` and [a link](https://example.com/a)\n\n"
                + "- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assertTrue(html.contains("<h1>Title</h1>"), html);
        assertTrue(html.contains("<strong>bold</strong>"), html);
        assertTrue(html.contains("<code>code</code>"), html);
        assertTrue(html.contains("<a href=\"https://example.com/a\" rel=\"nofollow noopener noreferrer\">a link</a>"),
                html);
        assertTrue(html.contains("<li>one</li>"), html);
        assertTrue(html.contains("<table>") && html.contains("<td>2</td>"), html);
    }

    @Test
    void rawHtmlIsShownAsText() {
        assertEquals("<p>&lt;b&gt;hi&lt;/b&gt;</p>\n", MarkdownHtml.of("<b>hi</b>"));
    }
}
