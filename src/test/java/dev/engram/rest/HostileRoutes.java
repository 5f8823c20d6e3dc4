package dev.engram.rest;

import java.util.List;

/** The routes a hostile request aims at, each with a valid request to make shapes from, and what each route is. */
final class HostileRoutes {

    private HostileRoutes() {
    }

    /**
     * A route: its method, its path with {s}, {scope}, {name}, {session}, {id} (a memory), {bank}, and under
     * /v1/memory_stores {mem} and {ver} (its memory store's memory and old version) and {sha} (the digest of a
     * memory's content) to fill, and a valid body.
     */
    record Route(String method, String path, String body) {
    }

    static final String MS = "/v1/memory_stores";

    static final List<Route> ROUTES = List.of(
            new Route("GET", "/v1/stores/{s}", null),
            new Route("PUT", "/v1/stores/{s}", "{\"max_entry_bytes\": 2048}"),
            new Route("GET", "/v1/stores/{s}/export", null),
            // The import's body is an archive, not JSON: no JSON shapes are made from it (bodied() skips it); the
            // archive attacks are HostileArchiveTest's table. Here it meets the malformed requests and retries.
            new Route("POST", "/v1/stores/{s}/import", ""),
            new Route("GET", "/v1/stores/{s}/scopes/{scope}/entries", null),
            new Route("GET", "/v1/stores/{s}/scopes/{scope}/entries/{name}", null),
            new Route("PUT", "/v1/stores/{s}/scopes/{scope}/entries/{name}", "{\"content\": \"new text\", "
                    + "\"meta\": {\"k\": \"v\"}}"),
            new Route("PATCH", "/v1/stores/{s}/scopes/{scope}/entries/{name}",
                    "{\"old_text\": \"SECRET\", \"new_text\": \"open\"}"),
            new Route("DELETE", "/v1/stores/{s}/scopes/{scope}/entries/{name}", null),
            new Route("POST", "/v1/stores/{s}/scopes/{scope}/entries/{name}/erase", "{\"reason\": \"asked\"}"),
            new Route("GET", "/v1/stores/{s}/search?q=secret", null),
            new Route("GET", "/v1/stores/{s}/search?q=secret&order=relevance&offset=1", null),
            new Route("GET", "/v1/stores/{s}/journal", null),
            new Route("GET", "/v1/stores/{s}/lost-updates", null),
            new Route("GET", "/v1/stores/{s}/render?scope={scope}", null),
            new Route("POST", "/v1/stores/{s}/sessions/{session}/render?scope={scope}", ""),
            new Route("POST", "/v1/stores/{s}/sessions/{session}/render?scope={scope}&omit=block", ""),
            new Route("GET", "/v1/stores/{s}/sessions/{session}/manifests", null),
            new Route("GET", "/v1/stores/{s}/tools?scope={scope}", null),
            new Route("GET", "/v1/stores/{s}/tools?bank={bank}", null),
            new Route("POST", "/v1/stores/{s}/tools/call", "{\"name\": \"memory_save\", \"scopes\": [\"{scope}\"], "
                    + "\"arguments\": {\"name\": \"{name}\", \"content\": \"x\"}}"),
            new Route("POST", "/v1/stores/{s}/memories", "{\"content\": \"a fact\", \"tags\": [\"t1\", \"t2\"], "
                    + "\"keywords\": [\"k\"], \"source\": \"user_input\"}"),
            new Route("POST", "/v1/stores/{s}/memories/batch", "{\"memories\": [{\"content\": \"a fact\", "
                    + "\"bank\": \"user:alice\", \"tags\": [\"t1\"]}, {\"content\": \"another\", \"bank\": "
                    + "{\"type\": \"user\", \"id\": \"bob\"}}]}"),
            new Route("GET", "/v1/stores/{s}/memories", null),
            new Route("DELETE", "/v1/stores/{s}/memories", null),
            new Route("GET", "/v1/stores/{s}/memories/{id}", null),
            new Route("POST", "/v1/stores/{s}/memories/search", "{\"query\": \"secret\", \"banks\": [\"user:alice\"], "
                    + "\"ranking\": \"hybrid\", \"explain\": true}"),
            new Route("GET", "/v1/stores/{s}/recall", null),
            new Route("PUT", "/v1/stores/{s}/memories/{id}", "{\"content\": \"a fact\", \"tags\": [\"t\"]}"),
            new Route("DELETE", "/v1/stores/{s}/memories/{id}", null),
            new Route("POST", "/v1/stores/{s}/memories/{id}/archive", "{\"reason\": \"old\"}"),
            new Route("POST", "/v1/stores/{s}/memories/{id}/unarchive", ""),
            new Route("POST", "/v1/stores/{s}/memories/{id}/supersede", "{\"by\": \"\"}"),
            new Route("POST", "/v1/stores/{s}/memories/{id}/access", ""),
            new Route("POST", "/v1/stores/{s}/memories/{id}/revisions", "{\"by\": \"leo\", \"summary\": \"ok\"}"),
            new Route("GET", "/v1/stores/{s}/banks/{bank}/config", null),
            new Route("PUT", "/v1/stores/{s}/banks/{bank}/config", "{\"mission\": \"m\", \"directives\": [\"d1\", "
                    + "\"d2\"], \"skepticism\": 3}"),
            new Route("GET", "/v1/stores/{s}/banks/{bank}/slots/SOUL", null),
            new Route("PUT", "/v1/stores/{s}/banks/{bank}/slots/SOUL", "{\"text\": \"be brief\"}"),
            new Route("POST", "/v1/stores/{s}/banks/{bank}/slots/SOUL/append", "{\"text\": \"and kind\"}"),
            new Route("DELETE", "/v1/stores/{s}/banks/{bank}/slots/SOUL", null),
            new Route("GET", "/v1/stores/{s}/banks/{bank}/entrypoint?top_n=5", null),
            new Route("GET", "/v1/stores/{s}/banks/{bank}/context?order=SOUL", null),
            new Route("POST", "/v1/stores/{s}/banks/{bank}/reflect", "{\"reflector\": \"deterministic\"}"),
            new Route("GET", "/v1/stores/{s}/mental-models", null),
            new Route("GET", "/v1/stores/{s}/mental-models/{id}", null),
            new Route("PUT", "/v1/stores/{s}/mental-models/{id}", "{\"name\": \"n\", \"description\": \"d\", "
                    + "\"content\": \"c\", \"tags\": [\"t1\", \"t2\"]}"),
            new Route("DELETE", "/v1/stores/{s}/mental-models/{id}", null),
            new Route("GET", "/v1/stores/{s}/contexts/{id}", null),
            new Route("DELETE", "/v1/stores/{s}/contexts/{id}", null),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}", "{\"strategy\": {\"name\": \"sliding_window\"}, "
                    + "\"pruning\": {\"protected_tools\": [\"grep\"], \"placeholder_text\": \"[cut]\"}}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}", "{\"memory\": {\"scopes\": [\"{scope}\"], "
                    + "\"max_total_bytes\": 4000, \"scope_max_bytes\": {\"{scope}\": 200}}}"),
            new Route("POST", "/v1/stores/{s}/contexts/{id}/steps", "{\"steps\": [{\"thought\": \"t\", "
                    + "\"reasoning_items\": [{\"id\": \"r1\", \"summary\": \"s\"}], \"action\": "
                    + "{\"id\": \"c1\", \"name\": \"read_file\", \"input\": {\"path\": \"a\"}}, "
                    + "\"observation\": \"o\"}]}"),
            new Route("POST", "/v1/stores/{s}/contexts/{id}/steps?prompt=openai-chat&compact=auto", "{\"steps\": "
                    + "[{\"thought\": \"t\", \"action\": {\"id\": \"c2\", \"name\": \"grep\"}, \"observation\": \"o\"}]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/system-prompt", "{\"text\": \"be brief\"}"),
            new Route("POST", "/v1/stores/{s}/contexts/{id}/token-count", "{\"input_tokens\": 10}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/task", "{\"text\": \"t\", \"blocks\": [{\"type\": "
                    + "\"text\", \"text\": \"b\"}]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/plan", "{\"text\": \"p\"}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/prior-conversation", "{\"messages\": [{\"role\": "
                    + "\"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"content\": \"ok\"}]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/interjection", "{\"text\": \"stop\"}"),
            new Route("DELETE", "/v1/stores/{s}/contexts/{id}/interjection", null),
            new Route("PUT", "/v1/stores/{s}/contexts/{id}/steps", "{\"steps\": [{\"thought\": \"t\"}]}"),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/steps", null),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/fill", null),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/vulnerable-outputs", null),
            new Route("POST", "/v1/stores/{s}/contexts/{id}/tool-results", "{\"tool_name\": \"grep\", "
                    + "\"content\": \"x\", \"file_path\": \"a.txt\"}"),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/prompt", null),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/prompt?format=anthropic", null),
            new Route("POST", "/v1/stores/{s}/contexts/{id}/compact", ""),
            new Route("GET", "/v1/stores/{s}/contexts/{id}/tool-results/abcd?start_line=1", null),
            new Route("POST", "/v1/stores/{s}/tools/call", "{\"name\": \"memory_recall\", \"bank\": {\"type\": "
                    + "\"user\", \"id\": \"alice\"}, \"arguments\": {\"query\": \"secret\"}}"),
            new Route("POST", "/v1/stores/{s}/tools/call", "{\"name\": \"tool_result_read\", \"context\": \"m-1\", "
                    + "\"arguments\": {\"hash\": \"abcd\", \"start_line\": 1}}"),
            new Route("POST", "/v1/stores/{s}/memory-tool", "{\"command\": \"create\", \"path\": "
                    + "\"/memories/{scope}/{name}.md\", \"file_text\": \"a line\"}"),
            new Route("POST", "/v1/stores/{s}/memory-tool", "{\"type\": \"tool_use\", \"id\": \"toolu_1\", "
                    + "\"name\": \"memory\", \"input\": {\"command\": \"view\", \"path\": \"/memories\", "
                    + "\"view_range\": [1, 2]}}"),
            new Route("POST", MS, "{\"name\": \"{name}\", \"description\": \"d\", \"metadata\": "
                    + "{\"k\": \"v\"}}"),
            new Route("GET", MS + "?include_archived=true&limit=5&created_at%5Bgte%5D=2020-01-01T00:00:00Z", null),
            new Route("GET", MS + "/memstore_{s}", null),
            new Route("POST", MS + "/memstore_{s}", "{\"name\": \"n\", \"description\": \"d\", \"metadata\": "
                    + "{\"k\": \"v\", \"gone\": null}}"),
            new Route("POST", MS + "/memstore_{s}/archive", ""),
            // a store of its own, {s}-style (seeded) or a retry's: a DELETE that may be taken leaves the seed
            new Route("DELETE", MS + "/memstore_{s}-{name}", null),
            new Route("POST", MS + "/memstore_{s}/memories?view=full", "{\"path\": \"/{scope}/{name}.md\", "
                    + "\"content\": \"a line\"}"),
            new Route("GET", MS + "/memstore_{s}/memories?path_prefix=/user/&depth=1&view=full&limit=5", null),
            new Route("GET", MS + "/memstore_{s}/memories/{mem}?view=basic", null),
            new Route("POST", MS + "/memstore_{s}/memories/{mem}", "{\"path\": \"/{scope}/{name}-moved.md\", "
                    + "\"content\": \"new\", \"precondition\": {\"type\": \"content_sha256\", "
                    + "\"content_sha256\": \"{sha}\"}}"),
            new Route("DELETE", MS + "/memstore_{s}/memories/{mem}?expected_content_sha256={sha}", null),
            new Route("GET", MS + "/memstore_{s}/memory_versions?memory_id={mem}&operation=modified&view=full"
                    + "&limit=5", null),
            new Route("GET", MS + "/memstore_{s}/memory_versions/{ver}?view=basic", null),
            new Route("POST", MS + "/memstore_{s}/memory_versions/{ver}/redact", ""),
            new Route("GET", "/.well-known/oauth-protected-resource", null),
            new Route("GET", "/.well-known/oauth-protected-resource/mcp", null),
            new Route("POST", "/v1/manifests/fold", "{\"records\": []}"),
            new Route("POST", "/v1/manifests/record-since", "{\"manifest\": {\"entries\": [{\"scope\": \"user\", "
                    + "\"name\": \"style\", \"hash\": \"h\", \"bytes\": 1}]}}"),
            new Route("POST", "/v1/manifests/apply", "{\"manifest\": {\"entries\": [{\"scope\": \"user\", "
                    + "\"name\": \"style\", \"hash\": \"h\", \"bytes\": 1}]}, \"record\": {}}"),
            new Route("POST", "/v1/compact", "{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", "
                    + "\"content\": \"hi\"}], \"strategy\": {\"name\": \"summarization\", \"summarizer\": \"none\"}}"),
            new Route("GET", "/v1/keys", null),
            new Route("POST", "/v1/keys", "{\"name\": \"k\", \"grants\": [{\"stores\": \"{s}\", \"role\": \"read\", "
                    + "\"scopes\": [\"user\"]}]}"),
            new Route("DELETE", "/v1/keys/key_{name}", null));

    /** Routes whose body is only transformed and answered (nothing stored): a 2xx there writes nothing. */
    static boolean stateless(Route r) {
        return r.path().startsWith("/v1/manifests") || r.path().startsWith("/v1/compact");
    }

    /** The routes whose valid body is a JSON object, to make shapes from. */
    static List<Route> bodied() {
        return ROUTES.stream().filter(r -> r.body() != null && r.body().startsWith("{")).toList();
    }

    /** A route a read-only key may call: a GET, a search, a call of a tool that only reads. */
    static boolean reads(Route route) {
        return route.method().equals("GET") || route.path().endsWith("/search")
                || route.path().endsWith("/tools/call") && route.body() != null && route.body()
                        .matches("(?s)\\{\"name\": \"(memory_recall|memory_search|tool_result_read)\".*");
    }

    /**
     * The Memory Stores API's list and creation of memory stores: any key lists what it reaches and creates a store
     * of its own, so another tenant's key is no attack there.
     */
    static boolean anyTenant(String path) {
        return path.equals(MS) || path.startsWith(MS + "?");
    }

    /** A store-less helper (manifests, compaction): any valid key may call it, so a foreign key is no attack. */
    static boolean storeless(String path) {
        return path.startsWith("/v1/manifests") || path.startsWith("/v1/compact");
    }
}
