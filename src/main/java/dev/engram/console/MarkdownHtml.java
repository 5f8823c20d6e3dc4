package dev.engram.console;

import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.owasp.html.HtmlPolicyBuilder;
import org.owasp.html.PolicyFactory;
import org.owasp.html.Sanitizers;

/**
 * Markdown an agent wrote, as HTML a console page may show: untrusted text, so it is rendered with every raw HTML
 * tag escaped and only http, https and mailto links kept, and the HTML that comes out is then sanitised against an
 * allow-list (text formatting, blocks, lists, tables, code, links to absolute addresses that open nothing in this
 * page's context). No image, script, style, form, frame, event handler or relative link survives either step.
 */
public final class MarkdownHtml {

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true)
            .sanitizeUrls(true).build();
    /** A link an agent wrote may lead only out, to an absolute http, https or mailto address; not into the console. */
    private static final java.util.regex.Pattern ABSOLUTE = java.util.regex.Pattern.compile("(?i)(https?://|mailto:)\\S+");
    private static final PolicyFactory POLICY = Sanitizers.FORMATTING.and(Sanitizers.BLOCKS).and(Sanitizers.TABLES)
            .and(new HtmlPolicyBuilder()
                    .allowElements("pre", "code", "hr", "br", "del")
                    .allowElements("a").allowUrlProtocols("http", "https", "mailto").allowAttributes("href")
                    .matching(ABSOLUTE).onElements("a").requireRelsOnLinks("nofollow", "noopener", "noreferrer")
                    .toFactory());

    private MarkdownHtml() {
    }

    /** {@code markdown} as sanitised HTML. */
    public static String of(String markdown) {
        return POLICY.sanitize(RENDERER.render(PARSER.parse(markdown == null ? "" : markdown)));
    }
}
