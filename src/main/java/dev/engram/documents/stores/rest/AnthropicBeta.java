package dev.engram.documents.stores.rest;

import dev.engram.kernel.Invalid;
import dev.engram.problems.ErrorEnvelope;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The beta header of the Memory Stores API: every request under {@link ErrorEnvelope#PATH} names exactly one of
 * its betas in {@code anthropic-beta} (comma-separated, beside any others), as Anthropic's API asks; none or both is
 * refused (400), before a resource is chosen but after the caller is known.
 */
public class AnthropicBeta {

    public static final String HEADER = "anthropic-beta";
    public static final String AGENT_MEMORY = "agent-memory-2026-07-22";
    public static final String MANAGED_AGENTS = "managed-agents-2026-04-01";

    @ServerRequestFilter(preMatching = true)
    public void requireOneBeta(HttpServerRequest request) {
        if (!ErrorEnvelope.covers(request.path())) {
            return;
        }
        List<String> named = new ArrayList<>();
        for (String value : request.headers().getAll(HEADER)) {
            for (String beta : value.split(",")) {
                String b = beta.trim().toLowerCase(Locale.ROOT);
                if ((b.equals(AGENT_MEMORY) || b.equals(MANAGED_AGENTS)) && !named.contains(b)) {
                    named.add(b);
                }
            }
        }
        if (named.isEmpty()) {
            throw new Invalid("beta-missing", HEADER, "The Memory Stores API is in beta: send " + HEADER + ": "
                    + AGENT_MEMORY + " (or " + MANAGED_AGENTS + ").");
        }
        if (named.size() > 1) {
            throw new Invalid("beta-conflict", HEADER, "The request names both betas of the Memory Stores API, "
                    + AGENT_MEMORY + " and " + MANAGED_AGENTS + "; send one of them.");
        }
    }
}
