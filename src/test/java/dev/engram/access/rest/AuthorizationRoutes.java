package dev.engram.access.rest;

import java.util.List;

/**
 * The rows and columns of {@link AuthorizationMatrixTest}: every route, with the status each kind of caller gets.
 */
final class AuthorizationRoutes {

    private AuthorizationRoutes() {
    }

    /** The callers, in the order of each route's expected statuses. */
    enum Who {
        NONE, BAD, REVOKED, OTHER, READ_ONLY, LIMITED, ADMIN
    }

    /** One route: {@code {s}} in the path is the cell's store; {@code expected} one status per {@link Who}. */
    record Route(String label, String method, String path, String body, String accept, String expected) {

        boolean stream() {
            return "text/event-stream".equals(accept) || path.startsWith("/mcp/sse");
        }

        boolean aboutAStore() {
            return path.contains("{s}");
        }

        /** A route of the Memory Stores API: it takes anthropic-beta, and answers refusals in the error envelope. */
        boolean anthropic() {
            return path.startsWith(M);
        }

        /** Whether the cell's store is archived once seeded. */
        boolean archived() {
            return label.endsWith(", archived");
        }

        int status(Who who) {
            return Integer.parseInt(expected.trim().split("\\s+")[who.ordinal()]);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    static Route route(String label, String method, String path, String body, String expected) {
        return new Route(label, method, path, body, null, expected);
    }

    static final String S = "/v1/stores/{s}";
    /**
     * The Memory Stores API: {@code memstore_{s}} is the cell's store; {@code {mem:user}} and {@code {mem:project}}
     * its seeded memories /user/notes.md and /project/plan.md, {@code {ver:old}} and {@code {ver:current}} the first
     * and the current version of /project/plan.md. A label ending in {@code , archived} archives the store after
     * seeding it; one ending in {@code (Bearer)} sends the key as Authorization: Bearer rather than x-api-key.
     */
    static final String M = "/v1/memory_stores";
    static final String MS = M + "/memstore_{s}";

    /** The body of a route that takes a store's archive: sent as application/gzip, a small valid archive. */
    static final String ARCHIVE = "<archive>";

    /** A console route's form: {@code form:} and its fields as a query string (the session's token is added). */
    static final String FORM = "form:";

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    private static final List<Route> API_ROUTES = List.of(
            route("configure store", "PUT", S, "{\"max_entry_bytes\": 2048}", "401 401 401 404 403 403 200"),
            route("export the store", "GET", S + "/export", null, "401 401 401 404 200 403 200"),
            route("import an archive", "POST", S + "/import", ARCHIVE, "401 401 401 404 403 403 200"),
            route("store and counts", "GET", S, null, "401 401 401 404 200 403 200"),
            route("list user", "GET", S + "/scopes/user/entries", null, "401 401 401 404 200 200 200"),
            route("list project", "GET", S + "/scopes/project/entries", null, "401 401 401 404 200 403 200"),
            route("get user entry", "GET", S + "/scopes/user/entries/style", null, "401 401 401 404 200 200 200"),
            route("get read-only scope entry", "GET", S + "/scopes/rules/entries/tone", null,
                    "401 401 401 404 200 200 200"),
            route("get project entry", "GET", S + "/scopes/project/entries/build", null,
                    "401 401 401 404 200 403 200"),
            route("put user entry", "PUT", S + "/scopes/user/entries/fresh", "{\"content\": \"new\"}",
                    "401 401 401 404 403 201 201"),
            route("put read-only scope entry", "PUT", S + "/scopes/rules/entries/fresh", "{\"content\": \"new\"}",
                    "401 401 401 404 403 403 201"),
            route("patch user entry", "PATCH", S + "/scopes/user/entries/style",
                    "{\"old_text\": \"SECRET\", \"new_text\": \"OPEN\"}", "401 401 401 404 403 200 200"),
            route("forget user entry", "DELETE", S + "/scopes/user/entries/style", null,
                    "401 401 401 404 403 200 200"),
            route("forget project entry", "DELETE", S + "/scopes/project/entries/build", null,
                    "401 401 401 404 403 403 200"),
            route("erase user entry", "POST", S + "/scopes/user/entries/style/erase", "{\"reason\": \"asked\"}",
                    "401 401 401 404 403 403 200"),
            route("put user entry once", "PUT", S + "/scopes/user/entries/once", "{\"content\": \"new\"}",
                    "401 401 401 404 403 201 201"),
            route("search", "GET", S + "/search?q=secret", null, "401 401 401 404 200 200 200"),
            route("search project", "GET", S + "/search?q=secret&scope=project", null,
                    "401 401 401 404 200 403 200"),
            route("search by relevance", "GET", S + "/search?q=secret&order=relevance&offset=0", null,
                    "401 401 401 404 200 200 200"),
            route("search project by relevance", "GET", S + "/search?q=secret&scope=project&order=relevance", null,
                    "401 401 401 404 200 403 200"),
            route("journal", "GET", S + "/journal", null, "401 401 401 404 200 403 200"),
            new Route("journal as NDJSON", "GET", S + "/journal", null, "application/x-ndjson",
                    "401 401 401 404 200 403 200"),
            new Route("journal followed (SSE)", "GET", S + "/journal", null, "text/event-stream",
                    "401 401 401 404 200 403 200"),
            route("lost updates", "GET", S + "/lost-updates", null, "401 401 401 404 200 403 200"),
            route("render user", "GET", S + "/render?scope=user", null, "401 401 401 404 200 200 200"),
            route("render every scope", "GET", S + "/render", null, "401 401 401 404 200 200 200"),
            route("render project", "GET", S + "/render?scope=project", null, "401 401 401 404 200 403 200"),
            route("render for a session", "POST", S + "/sessions/s2/render?scope=user", null,
                    "401 401 401 404 403 200 200"),
            route("render project for a session", "POST", S + "/sessions/s2/render?scope=project", null,
                    "401 401 401 404 403 403 200"),
            route("render for a session, block left out", "POST", S + "/sessions/s2/render?scope=user&omit=block",
                    null, "401 401 401 404 403 200 200"),
            route("render project for a session, block left out", "POST",
                    S + "/sessions/s2/render?scope=project&omit=block", null, "401 401 401 404 403 403 200"),
            route("session manifests", "GET", S + "/sessions/s1/manifests", null, "401 401 401 404 200 403 200"),
            route("tools", "GET", S + "/tools?scope=user&read_scope=rules", null, "401 401 401 404 403 200 200"),
            route("tools on project", "GET", S + "/tools?scope=project", null, "401 401 401 404 403 403 200"),
            route("recall tools alone", "GET", S + "/tools?bank=user:alice", null, "401 401 401 404 200 403 200"),
            route("tool_result_read alone", "GET", S + "/tools?context=c-1", null, "401 401 401 404 200 403 200"),
            route("tool call", "POST", S + "/tools/call", "{\"name\": \"memory_save\", \"arguments\": {\"scope\": "
                    + "\"user\", \"name\": \"t\", \"content\": \"x\"}, \"scopes\": [\"user\"]}",
                    "401 401 401 404 403 200 200"),
            route("tool call on project", "POST", S + "/tools/call", "{\"name\": \"memory_search\", \"arguments\": "
                    + "{\"query\": \"secret\"}, \"scopes\": [\"project\"]}", "401 401 401 404 403 403 200"),
            route("save a memory", "POST", S + "/memories", "{\"content\": \"a new fact\"}",
                    "401 401 401 404 403 403 201"),
            route("save memories in a batch", "POST", S + "/memories/batch", "{\"memories\": [{\"content\": "
                    + "\"a new fact\", \"bank\": \"user:alice\"}]}", "401 401 401 404 403 403 201"),
            route("list memories", "GET", S + "/memories", null, "401 401 401 404 200 403 200"),
            route("search memories", "POST", S + "/memories/search", "{\"query\": \"secret\"}",
                    "401 401 401 404 200 403 200"),
            route("search memories, explained", "POST", S + "/memories/search", "{\"query\": \"secret\", "
                    + "\"ranking\": \"lexical\", \"explain\": true}", "401 401 401 404 200 403 200"),
            route("recall status", "GET", S + "/recall", null, "401 401 401 404 200 403 200"),
            route("archive a memory", "POST", S + "/memories/m-1/archive", "{\"reason\": \"old\"}",
                    "401 401 401 404 403 403 200"),
            route("clear memories", "DELETE", S + "/memories", null, "401 401 401 404 403 403 200"),
            route("get a memory", "GET", S + "/memories/m-1", null, "401 401 401 404 200 403 200"),
            route("bank entrypoint", "GET", S + "/banks/global/entrypoint", null, "401 401 401 404 200 403 200"),
            route("set a slot", "PUT", S + "/banks/user:alice/slots/SOUL", "{\"text\": \"be brief\"}",
                    "401 401 401 404 403 403 200"),
            route("configure a bank", "PUT", S + "/banks/user:alice/config", "{\"mission\": \"m\"}",
                    "401 401 401 404 403 403 200"),
            route("reflect a bank", "POST", S + "/banks/user:alice/reflect", "{\"reflector\": \"deterministic\"}",
                    "401 401 401 404 403 403 200"),
            route("list mental models", "GET", S + "/mental-models", null, "401 401 401 404 200 403 200"),
            route("save a mental model", "PUT", S + "/mental-models/mm-1", "{\"content\": \"c\"}",
                    "401 401 401 404 403 403 200"),
            route("memory_recall tool", "POST", S + "/tools/call", "{\"name\": \"memory_recall\", \"bank\": "
                    + "\"global\", \"arguments\": {\"query\": \"secret\"}}", "401 401 401 404 200 403 200"),
            route("memory_recall tool, bank as scope", "POST", S + "/tools/call", "{\"name\": \"memory_recall\", "
                    + "\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"arguments\": {\"query\": \"secret\"}}",
                    "401 401 401 404 200 403 200"),
            route("memory_remember tool", "POST", S + "/tools/call", "{\"name\": \"memory_remember\", \"bank\": "
                    + "\"global\", \"arguments\": {\"content\": \"x\"}}", "401 401 401 404 403 403 200"),
            route("configure a context", "PUT", S + "/contexts/c-2", "{\"strategy\": {\"name\": \"summarization\"}}",
                    "401 401 401 404 403 403 201"),
            route("get a context", "GET", S + "/contexts/c-1", null, "401 401 401 404 200 403 200"),
            route("append context steps", "POST", S + "/contexts/c-1/steps", "{\"steps\": [{\"thought\": \"t\"}]}",
                    "401 401 401 404 403 403 200"),
            route("append context steps, compacting, with the prompt", "POST", S + "/contexts/c-1/steps?prompt="
                    + "anthropic&compact=auto", "{\"steps\": [{\"thought\": \"t\"}]}", "401 401 401 404 403 403 200"),
            route("set a context's plan", "PUT", S + "/contexts/c-1/plan", "{\"text\": \"p\"}",
                    "401 401 401 404 403 403 200"),
            route("a context's prompt", "GET", S + "/contexts/c-1/prompt", null, "401 401 401 404 200 403 200"),
            route("a context's prompt for anthropic", "GET", S + "/contexts/c-1/prompt?format=anthropic", null,
                    "401 401 401 404 200 403 200"),
            route("a context's prompt for openai-chat", "GET", S + "/contexts/c-1/prompt?format=openai-chat", null,
                    "401 401 401 404 200 403 200"),
            route("a context's fill", "GET", S + "/contexts/c-1/fill", null, "401 401 401 404 200 403 200"),
            route("configure a context with memory", "PUT", S + "/contexts/c-3", "{\"memory\": {\"scopes\": "
                    + "[\"user\"]}}", "401 401 401 404 403 403 201"),
            route("a context's prompt with memory", "GET", S + "/contexts/c-m/prompt", null,
                    "401 401 401 404 200 403 200"),
            route("compact a context", "POST", S + "/contexts/c-1/compact", null, "401 401 401 404 403 403 200"),
            route("a cached tool result", "GET", S + "/contexts/c-1/tool-results/" + dev.engram.contexts.cache
                    .ToolResultCache.contentHash("read_file", "SECRET-file").substring(0, 4), null,
                    "401 401 401 404 200 403 200"),
            route("tool_result_read tool", "POST", S + "/tools/call", "{\"name\": \"tool_result_read\", "
                    + "\"context\": \"c-1\", \"arguments\": {\"hash\": \"" + dev.engram.contexts.cache.ToolResultCache
                    .contentHash("read_file", "SECRET-file").substring(0, 4) + "\"}}", "401 401 401 404 200 403 200"),
            route("set a context's task", "PUT", S + "/contexts/c-1/task", "{\"text\": \"t\"}",
                    "401 401 401 404 403 403 200"),
            route("set a context's prior conversation", "PUT", S + "/contexts/c-1/prior-conversation",
                    "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", "401 401 401 404 403 403 200"),
            route("set a context's interjection", "PUT", S + "/contexts/c-1/interjection", "{\"text\": \"stop\"}",
                    "401 401 401 404 403 403 200"),
            route("consume a context's interjection", "DELETE", S + "/contexts/c-1/interjection", null,
                    "401 401 401 404 403 403 200"),
            route("a context's steps", "GET", S + "/contexts/c-1/steps", null, "401 401 401 404 200 403 200"),
            route("a context's vulnerable outputs", "GET", S + "/contexts/c-1/vulnerable-outputs", null,
                    "401 401 401 404 200 403 200"),
            route("cache a tool result", "POST", S + "/contexts/c-1/tool-results", "{\"tool_name\": \"grep\", "
                    + "\"content\": \"x\"}", "401 401 401 404 403 403 200"),
            route("replace context steps", "PUT", S + "/contexts/c-1/steps", "{\"steps\": [{\"thought\": \"t\"}]}",
                    "401 401 401 404 403 403 200"),
            route("delete a context", "DELETE", S + "/contexts/c-1", null, "401 401 401 404 403 403 204"),
            route("memory tool: view the root", "POST", S + "/memory-tool", "{\"command\": \"view\", \"path\": "
                    + "\"/memories\"}", "401 401 401 404 200 200 200"),
            route("memory tool: view a project file", "POST", S + "/memory-tool", "{\"command\": \"view\", "
                    + "\"path\": \"/memories/project/plan.md\"}", "401 401 401 404 200 200 200"),
            route("memory tool: create a user file", "POST", S + "/memory-tool", "{\"command\": \"create\", "
                    + "\"path\": \"/memories/user/fresh.md\", \"file_text\": \"new\"}",
                    "401 401 401 404 200 200 200"),
            route("memory tool: edit a project file", "POST", S + "/memory-tool", "{\"command\": "
                    + "\"str_replace\", \"path\": \"/memories/project/plan.md\", \"old_str\": \"SECRET\", "
                    + "\"new_str\": \"open\"}", "401 401 401 404 200 200 200"),
            route("memory tool: delete the user directory", "POST", S + "/memory-tool", "{\"type\": \"tool_use\", "
                    + "\"id\": \"toolu_1\", \"name\": \"memory\", \"input\": {\"command\": \"delete\", "
                    + "\"path\": \"/memories/user\"}}", "401 401 401 404 200 200 200"),
            route("create a memory store", "POST", M, "{\"name\": \"fresh\", \"description\": \"d\", "
                    + "\"metadata\": {\"team\": \"t\"}}", "401 401 401 200 403 403 200"),
            route("list memory stores", "GET", M, null, "401 401 401 200 200 200 200"),
            route("list memory stores, archived ones too", "GET", M + "?include_archived=true", null,
                    "401 401 401 200 200 200 200"),
            route("retrieve a memory store", "GET", MS, null, "401 401 401 404 200 200 200"),
            route("retrieve a memory store (Bearer)", "GET", MS, null, "401 401 401 404 200 200 200"),
            route("update a memory store", "POST", MS, "{\"name\": \"renamed\", \"metadata\": {\"team\": "
                    + "null}}", "401 401 401 404 403 403 200"),
            route("update a memory store, archived", "POST", MS, "{\"name\": \"renamed\"}",
                    "401 401 401 404 403 403 400"),
            route("archive a memory store", "POST", MS + "/archive", null, "401 401 401 404 403 403 200"),
            route("delete a memory store", "DELETE", MS, null, "401 401 401 404 403 403 200"),
            route("create a user memory", "POST", MS + "/memories", "{\"path\": \"/user/fresh.md\", "
                    + "\"content\": \"new\"}", "401 401 401 404 403 200 200"),
            route("create a project memory", "POST", MS + "/memories", "{\"path\": \"/project/fresh.md\", "
                    + "\"content\": \"new\"}", "401 401 401 404 403 403 200"),
            route("create a memory of no scope", "POST", MS + "/memories?view=full", "{\"path\": \"/fresh.md\", "
                    + "\"content\": \"new\"}", "401 401 401 404 403 403 200"),
            route("create a user memory, archived", "POST", MS + "/memories", "{\"path\": \"/user/fresh.md\", "
                    + "\"content\": \"new\"}", "401 401 401 404 403 400 400"),
            route("list memories, full view", "GET", MS + "/memories?view=full", null,
                    "401 401 401 404 200 200 200"),
            route("list project memories, full view", "GET", MS + "/memories?path_prefix=/project/&view=full", null,
                    "401 401 401 404 200 200 200"),
            route("list memories one level deep", "GET", MS + "/memories?depth=1", null,
                    "401 401 401 404 200 200 200"),
            route("retrieve a user memory", "GET", MS + "/memories/{mem:user}", null, "401 401 401 404 200 200 200"),
            route("retrieve a project memory", "GET", MS + "/memories/{mem:project}", null,
                    "401 401 401 404 200 403 200"),
            route("update a user memory", "POST", MS + "/memories/{mem:user}", "{\"content\": \"changed\"}",
                    "401 401 401 404 403 200 200"),
            route("update a project memory", "POST", MS + "/memories/{mem:project}", "{\"content\": \"changed\"}",
                    "401 401 401 404 403 403 200"),
            route("move a user memory into project", "POST", MS + "/memories/{mem:user}", "{\"path\": "
                    + "\"/project/moved.md\"}", "401 401 401 404 403 403 200"),
            route("update a user memory, archived", "POST", MS + "/memories/{mem:user}", "{\"content\": "
                    + "\"changed\"}", "401 401 401 404 403 400 400"),
            route("delete a user memory", "DELETE", MS + "/memories/{mem:user}", null, "401 401 401 404 403 200 200"),
            route("delete a project memory", "DELETE", MS + "/memories/{mem:project}", null,
                    "401 401 401 404 403 403 200"),
            route("delete a user memory, archived", "DELETE", MS + "/memories/{mem:user}", null,
                    "401 401 401 404 403 400 400"),
            route("list memory versions, full view", "GET", MS + "/memory_versions?view=full", null,
                    "401 401 401 404 200 403 200"),
            route("list a user memory's versions", "GET", MS + "/memory_versions?memory_id={mem:user}", null,
                    "401 401 401 404 200 403 200"),
            route("retrieve a memory version", "GET", MS + "/memory_versions/{ver:old}", null,
                    "401 401 401 404 200 403 200"),
            route("redact a memory version", "POST", MS + "/memory_versions/{ver:old}/redact", null,
                    "401 401 401 404 403 403 200"),
            route("redact a memory's current version", "POST", MS + "/memory_versions/{ver:current}/redact", null,
                    "401 401 401 404 403 403 400"),
            route("manifest helpers", "POST", "/v1/manifests/fold", "{\"records\": []}",
                    "401 401 401 200 200 200 200"),
            route("stateless compaction", "POST", "/v1/compact", "{\"format\": \"openai-chat\", \"messages\": "
                    + "[{\"role\": \"user\", \"content\": \"hi\"}], \"strategy\": {\"name\": \"summarization\", "
                    + "\"summarizer\": \"none\"}}", "401 401 401 200 200 200 200"),
            route("list keys", "GET", "/v1/keys", null, "401 401 401 403 403 403 200"),
            route("issue a key", "POST", "/v1/keys", "{\"name\": \"made\", \"grants\": [{\"stores\": \"acme-*\", "
                    + "\"role\": \"read\"}]}", "401 401 401 403 403 403 201"),
            route("revoke a key", "DELETE", "/v1/keys/key_no-such-key-here", null, "401 401 401 403 403 403 404"),
            new Route("MCP initialize", "POST", "/mcp?store={store}&scope=user", "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                    + "\"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-06-18\", "
                    + "\"capabilities\": {}, \"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}",
                    "application/json, text/event-stream", "401 401 401 200 200 200 200"),
            route("MCP legacy SSE transport", "GET", "/mcp/sse", null, "401 401 401 200 200 200 200"),
            route("metrics", "GET", "/q/metrics", null, "401 401 401 403 403 403 200"),
            route("OpenAPI", "GET", "/q/openapi", null, "401 401 401 403 403 403 200"),
            route("Swagger UI", "GET", "/q/swagger-ui/", null, "401 401 401 403 403 403 200"),
            route("an unknown path", "GET", "/nothing-here", null, "401 401 401 404 404 404 404"),
            route("health", "GET", "/q/health/live", null, "200 200 200 200 200 200 200"),
            route("OAuth protected resource metadata (none)", "GET", "/.well-known/oauth-protected-resource", null,
                    "404 404 404 404 404 404 404"),
            route("OAuth protected resource metadata of /mcp (none)", "GET",
                    "/.well-known/oauth-protected-resource/mcp", null, "404 404 404 404 404 404 404"),
            route("OAuth authorization server metadata (none)", "GET", "/.well-known/oauth-authorization-server",
                    null, "404 404 404 404 404 404 404"),
            route("OpenID discovery (none)", "GET", "/.well-known/openid-configuration", null,
                    "404 404 404 404 404 404 404"));

    /**
     * Every route: the API's, then the console's pages (sent with the caller's console session, if its key gets
     * one; declared last, as it reads the lists above).
     */
    static final List<Route> ROUTES = java.util.stream.Stream.of(API_ROUTES, ConsoleRoutesEntries.ROUTES,
            ConsoleRoutesJournal.ROUTES, ConsoleRoutesMemories.ROUTES, ConsoleRoutesContexts.ROUTES)
            .flatMap(List::stream).toList();
}
