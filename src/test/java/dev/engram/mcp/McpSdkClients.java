package dev.engram.mcp;

import dev.engram.TestAuth;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.net.URI;
import java.time.Duration;

/** Clients of the official MCP Java SDK connected to the test's Engram, with the operator key. */
public final class McpSdkClients {

    private McpSdkClients() {
    }

    /** A client of {@code /mcp?query} at {@code base}, initialized; the caller closes it. */
    public static McpSyncClient connect(URI base, String query) {
        var transport = HttpClientStreamableHttpTransport.builder(base.toString().replaceAll("/$", ""))
                .endpoint("/mcp?" + query)
                .customizeRequest(r -> r.header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }
}
