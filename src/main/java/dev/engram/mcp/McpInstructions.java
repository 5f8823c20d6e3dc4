package dev.engram.mcp;

import dev.engram.kernel.EngramException;
import dev.engram.kernel.Scope;
import dev.engram.tools.Usage;
import io.quarkiverse.mcp.server.InitialResponseInfo;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * The {@code instructions} of the initialize result: the usage text REST gives with the same tools ({@link Usage}), then
 * what this connection reaches (its store, the scopes it writes and reads, its bank), read from the initialize
 * request as every later request is. A connection whose settings are wrong is told what to change here, before its
 * first tool call fails on it.
 */
@Singleton
public class McpInstructions implements InitialResponseInfo {

    @Inject
    CurrentVertxRequest current;

    @Override
    public Optional<String> instructions(String serverName) {
        return Optional.of(usage() + "\n\n" + connection());
    }

    /** The paragraphs of the tool sets this connection lists: the entries', and the recall and tool-result tools. */
    private String usage() {
        var request = current.getCurrent() == null ? null : current.getCurrent().request();
        if (request == null) {
            return Usage.text();
        }
        return McpConnectionSettings.offer(request).usage();
    }

    private String connection() {
        var request = current.getCurrent() == null ? null : current.getCurrent().request();
        if (request == null) {
            return "This connection's store is named by ?store=<id> on the MCP URL (or an Engram-Store header).";
        }
        try {
            McpConnectionSettings c = McpConnectionSettings.of(request);
            String text = "This connection works in store " + c.store() + ": it writes scope"
                    + (c.scopes().size() == 1 ? " " : "s ") + names(c.scopes())
                    + (c.readScopes().isEmpty() ? "" : ", and reads " + names(c.readScopes()) + " without writing")
                    + ". The resource memory://block is its memory block.";
            return text + c.bank().map(b -> " memory_remember and memory_recall work in bank " + b.bankId() + ".")
                    .orElse("");
        } catch (EngramException e) {
            return "This connection cannot use the tools yet: " + e.getMessage();
        }
    }

    private static String names(List<Scope> scopes) {
        return String.join(", ", scopes.stream().map(Scope::toString).toList());
    }
}
