package dev.engram.problems;

import java.util.Map;

/**
 * A problem answered to a page of the console (docs/console.md): the status, headers, type and numbers of its
 * problem+json, as a page a person reads, with a way back. Every text in it is escaped.
 */
final class HtmlProblem {

    static final String MEDIA_TYPE = "text/html; charset=utf-8";

    private HtmlProblem() {
    }

    /** Whether {@code path} is a console page's. */
    static boolean covers(String path) {
        return path != null && (path.equals("/console") || path.startsWith("/console/"));
    }

    /** The page of {@code p}, refused at {@code instance}. */
    static String page(Problem p, String instance) {
        StringBuilder b = new StringBuilder(1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
        escape(b, p.title()).append(" · Engram</title><meta name=\"viewport\" content=\"width=device-width, "
                + "initial-scale=1\"><link rel=\"icon\" href=\"/console/assets/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/console/assets/console.css\"></head>\n<body>"
                + "<main class=\"problem\" id=\"main\"><h1>");
        escape(b, p.title()).append("</h1>\n<p class=\"status\">").append(p.status()).append(" · <code>");
        escape(b, Problem.TYPE_BASE + p.slug()).append("</code></p>\n<p>");
        escape(b, p.detail()).append("</p>\n");
        Map<String, Object> body = p.body(instance);
        if (!p.members().isEmpty()) {
            b.append("<dl>");
            p.members().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(m -> {
                b.append("<dt>");
                escape(b, m.getKey()).append("</dt><dd>");
                escape(b, String.valueOf(body.get(m.getKey()))).append("</dd>");
            });
            b.append("</dl>\n");
        }
        return b.append("<p><a href=\"/console\">Back to the console</a></p></main></body></html>\n").toString();
    }

    private static StringBuilder escape(StringBuilder b, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b;
    }
}
