package dev.engram.journal.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** The journal's content negotiation, before routing. */
@ApplicationScoped
public class JournalAccept {

    /**
     * {@code Accept: *}{@code /*} or none on the API's journal means the JSON page, not a stream that never ends; the
     * console's journal page is HTML and left alone.
     */
    @ServerRequestFilter(preMatching = true)
    public void journalDefaultsToJson(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!"GET".equals(request.getMethod()) || !path.startsWith("/v1/") || !path.endsWith("/journal")) {
            return;
        }
        String accept = request.getHeaderString(jakarta.ws.rs.core.HttpHeaders.ACCEPT);
        if (accept == null || !(accept.contains(JournalResource.NDJSON) || accept.contains("text/event-stream"))) {
            request.getHeaders().putSingle(jakarta.ws.rs.core.HttpHeaders.ACCEPT, "application/json");
        }
    }
}
