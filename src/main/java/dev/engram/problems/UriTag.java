package dev.engram.problems;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Micrometer's {@code uri} tag of a request that no resource answers: {@link #UNMATCHED}, one time series for all of
 * them. Without it the tag is the request's raw path, a series per store and entry, until Micrometer's cap of 100 uri
 * values is reached and every later route goes uncounted. Every refusal passes through {@link Problem#send} (the
 * edges' routes) or {@link Problem#toResponse} (the exception mappers, pre-matching filters included), which set it
 * unless a matched route already gave the request its template.
 */
public final class UriTag {

    /** The tag of a request answered or dropped before a resource was matched. */
    public static final String UNMATCHED = "UNMATCHED";
    /** Where Quarkus reads the template of the matched route from (the request's Vert.x context). */
    private static final String TEMPLATE = "UrlPathTemplate";

    private UriTag() {
    }

    /** Tags this request {@link #UNMATCHED}; a resource matched later replaces it with its template. */
    public static void unmatched() {
        Context context = Vertx.currentContext();
        if (context != null) {
            context.putLocal(TEMPLATE, UNMATCHED);
        }
    }

    /** Tags this request {@link #UNMATCHED} unless a route already gave it a template. */
    static void unmatchedUnlessTemplated() {
        Context context = Vertx.currentContext();
        if (context != null && context.getLocal(TEMPLATE) == null) {
            context.putLocal(TEMPLATE, UNMATCHED);
        }
    }
}
