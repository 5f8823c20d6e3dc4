package dev.engram.rest;

import static dev.engram.rest.HostileInputTest.OP;
import static dev.engram.rest.HostileRoutes.ROUTES;
import static dev.engram.rest.HostileRoutes.reads;
import static dev.engram.rest.HostileRoutes.anyTenant;
import static dev.engram.rest.HostileRoutes.storeless;

import dev.engram.rest.HostileRoutes.Route;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Hostile requests written by hand: bad path segments, bodies that are not JSON, not UTF-8 or break a rule, bad
 * headers and query parameters, missing and foreign tokens, broken JSON-RPC on /mcp. Each must be refused.
 */
final class MalformedRequests extends AttackShapes {

    MalformedRequests(String store, String readOnly, String otherTenant, String mcpSession, String memory,
            String version) {
        super(store, readOnly, otherTenant, mcpSession, memory, version);
    }

    /** Segments that are not exactly a valid id, each in one place of a route that has it. */
    Arbitrary<Attack> badSegments() {
        Arbitrary<String> bad = Arbitraries.oneOf(
                Arbitraries.of("a;b=c", "style;v=1", "%00", "a%00b", "UPPER", "a%20b", "-lead", "trail-", "a--b",
                        "%C0%AF", "%E2%80%8B", "caf%C3%A9", "%2e%2e", "a.b", "a_b", "%3Bx", "x%2Fy", "*", "%25"),
                Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withCharRange('a', 'z').ofLength(65),
                Arbitraries.strings().withChars("!$&'()*+,=@~").ofMinLength(1).ofMaxLength(4)
                        .map(x -> "a" + URLEncoder.encode(x, StandardCharsets.UTF_8)));
        // a memory's or mental model's id is any visible ASCII but / ? # % ; \, up to 128 characters
        Arbitrary<String> badId = Arbitraries.oneOf(
                Arbitraries.of("%00", "a%20b", "a;b=c", "%3Bx", "x%2Fy", "%25", "caf%C3%A9", "%C0%AF", "%E2%80%8B",
                        "a%5Cb", "a%09b", "%7F"),
                Arbitraries.strings().withCharRange('a', 'z').ofLength(129));
        // a bank id is global, a scope type, or a type, ':' and an id of visible characters but / ? # % ; \
        Arbitrary<String> badBank = Arbitraries.oneOf(
                Arbitraries.of("user:a;b=c", "user:%00", "user:a%20b", "user:x%2Fy", "user:%25", "user:%3Bx", "Team",
                        "weird:a", "global:x", "user:", "user:%E2%80%8B", "%C0%AF", "user:a%09b", "user:%20a",
                        "user:caf%C3", "user:a%5Cb", "USER:a"),
                Arbitraries.strings().withCharRange('a', 'z').ofLength(200).map(x -> "user:" + x));
        Arbitrary<Route> routes = Arbitraries.of(ROUTES.stream().filter(r -> r.path().contains("{")).toList());
        Arbitrary<Integer> where = Arbitraries.integers().between(0, 3);
        return Combinators.combine(routes, bad, badId, badBank, where).as((route, segment, id, bank, at) -> {
            List<String> slots = new ArrayList<>(List.of("{s}", "{scope}", "{name}", "{id}", "{bank}", "{mem}",
                    "{ver}"));
            // a memory's or version's id is a segment of the path; as a filter of the query it may name nothing
            String segments = route.path().replaceAll("\\?.*", "");
            slots.removeIf(slot -> !route.path().contains(slot) && !(route.body() != null
                    && route.body().contains(slot) && slot.equals("{s}"))
                    || (slot.equals("{mem}") || slot.equals("{ver}")) && !segments.contains(slot));
            String slot = slots.isEmpty() ? "{s}" : slots.get(at % slots.size());
            return request("segment", route, slot.equals("{s}") ? segment : store,
                    slot.equals("{scope}") ? segment : "user", slot.equals("{name}") ? segment : "style",
                    slot.equals("{session}") ? segment : "s1", List.of("{id}", "{mem}", "{ver}").contains(slot) ? id
                            : SEEDED,
                    slot.equals("{bank}") ? bank : "user:alice", Map.of(), route.body());
        });
    }

    /** Bodies that are not JSON, not UTF-8, the wrong shape, or break a rule, on the routes that write. */
    Arbitrary<Attack> badBodies() {
        Arbitrary<byte[]> bodies = Arbitraries.oneOf(
                Arbitraries.of("{", "[]", "null", "\"text\"", "42", "{\"content\": 5}", "{\"content\": null}",
                        "{\"content\": \"\"}", "{\"content\": \"x\", \"unknown\": 1}", "{\"content\": \"x\", "
                        + "\"meta\": {\"Bad Key\": \"v\"}}", "{\"content\": \"x\", \"meta\": {\"k\": \"a\\nb\"}}",
                        "{\"content\": \"" + "x".repeat(20_000) + "\"}", "{\"old_text\": \"\", \"new_text\": \"x\"}",
                        "{\"old_text\": \"absent\", \"new_text\": \"x\"}", "{\"name\": \"memory_nothing\"}",
                        "{\"name\": \"memory_save\", \"arguments\": null}", "{\"records\": 7}",
                        "{\"max_entry_bytes\": -1}", "{\"max_entry_bytes\": 1e99}", "{\"grants\": \"all\"}",
                        "[".repeat(5000), "{\"content\": \"x\"} trailing", "{\"content\": \"\\ud800\"}")
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.of(new byte[] {'{', '"', 'c', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'},
                        new byte[] {(byte) 0xFF, (byte) 0xFE, '{', 0, '}', 0},
                        new byte[] {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', 0, '"', '}'},
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(40).map(s -> ("{\"content\": " + s)
                        .getBytes(StandardCharsets.UTF_8)));
        List<Route> writes = ROUTES.stream().filter(r -> r.body() != null && !r.body().isEmpty()
                && !r.path().endsWith("/erase") && !r.path().equals("/v1/stores/{s}")).toList();
        return Combinators.combine(Arbitraries.of(writes), bodies).filter((route, body) -> !takenAsIs(route, body))
                .as((route, body) -> {
                    Attack a = request("body", route, store, "user", "style", "s1", Map.of(), "{}");
                    return new Attack(a.kind(), a.method(), a.path(), a.headers(), body);
                });
    }

    /**
     * A body of the list above that is no attack on this route: a cached tool result's content may be empty, absent
     * or long (up to the cache's bound), and {@code tool_name} is optional; a mental model's content has no bound
     * but the request's, so 20,000 bytes of it are a valid model. A memory store memory's update sets only what it
     * names (its content, which may be empty or 20,000 bytes; nothing for null), and a memory store's creation and
     * update take a name alone.
     */
    private static boolean takenAsIs(Route route, byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        return route.path().endsWith("/tool-results") && (text.equals("{\"content\": null}")
                || text.equals("{\"content\": \"\"}") || text.matches("\\{\"content\": \"x+\"}"))
                || route.path().contains("/mental-models/") && text.matches("\\{\"content\": \"x+\"}")
                || route.path().contains("/memories/{mem}") && (text.equals("{\"content\": null}")
                        || text.matches("\\{\"content\": \"x*\"}"))
                || (route.path().equals(HostileRoutes.MS) || route.path().endsWith("/memstore_{s}"))
                        && text.equals("{\"name\": \"memory_nothing\"}");
    }

    /** Preconditions, keys, sessions and content types that must be refused. */
    Arbitrary<Attack> badHeaders() {
        Arbitrary<Map<String, String>> headers = Arbitraries.of(
                Map.of("If-Match", ""), Map.of("If-Match", "\"\""), Map.of("If-Match", "garbage"),
                Map.of("If-Match", "\"v:00\""), Map.of("If-None-Match", ""), Map.of("If-None-Match", "\"x\", "),
                Map.of("Idempotency-Key", "two words"), Map.of("Idempotency-Key", "k".repeat(300)),
                Map.of("Engram-Session", "bad session"), Map.of("Engram-Session", "s".repeat(300)),
                Map.of("Engram-Based-On", "sha256:xyz"), Map.of("Content-Type", "text/plain"),
                Map.of("Content-Type", "application/x-www-form-urlencoded"),
                Map.of("Content-Type", "multipart/form-data"),
                Map.of("Content-Type", "application/json; charset=utf-16"));
        List<Route> writes = ROUTES.stream().filter(r -> r.path().contains("/entries/{name}")
                && (r.method().equals("PUT") || r.method().equals("PATCH"))).toList();
        Arbitrary<Attack> entries = Combinators.combine(Arbitraries.of(writes), headers).as((route, h) ->
                request("header", route, store, "user", "style", "s1", h, route.body() == null ? null : route.body()));
        return Arbitraries.frequencyOf(Tuple.of(3, entries), Tuple.of(1, anthropicHeaders()));
    }

    /**
     * The Memory Stores API's own header rules on each of its routes: no beta, both betas, a beta of another name, two
     * different keys (Bearer and x-api-key), an empty x-api-key beside no Authorization. Each is refused (400, or 401
     * for no key), in the error envelope, writing nothing.
     */
    private Arbitrary<Attack> anthropicHeaders() {
        List<Map<String, String>> headers = new ArrayList<>();
        headers.add(nulled("anthropic-beta"));
        headers.add(Map.of("anthropic-beta", BETA + ", managed-agents-2026-04-01"));
        headers.add(Map.of("anthropic-beta", "agent-memory-2026-07-21"));
        headers.add(Map.of("anthropic-beta", "files-api-2025-04-14"));
        headers.add(Map.of("x-api-key", readOnly));
        headers.add(Map.of("x-api-key", "eng_" + "x".repeat(43)));
        Map<String, String> empty = nulled("Authorization");
        empty.put("x-api-key", " ");
        headers.add(empty);
        List<Route> routes = ROUTES.stream().filter(r -> anthropic(r.path())).toList();
        return Combinators.combine(Arbitraries.of(routes), Arbitraries.of(headers)).as((route, h) ->
                request("header", route, store, "user", "style", "s1", h, route.body()));
    }

    /** Extra headers that remove {@code name} from a request. */
    private static Map<String, String> nulled(String name) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(name, null);
        return headers;
    }

    /** Query parameters out of range, of the wrong type, or holding what no query may. */
    Arbitrary<Attack> badQueries() {
        Arbitrary<String> paths = Arbitraries.of(
                "/v1/stores/{s}/scopes/user/entries?limit=-1", "/v1/stores/{s}/scopes/user/entries?limit=abc",
                "/v1/stores/{s}/scopes/user/entries?after=NOT%20A%20NAME", "/v1/stores/{s}/journal?after=-5",
                "/v1/stores/{s}/journal?after=99999999999999999999", "/v1/stores/{s}/journal?limit=1000000",
                "/v1/stores/{s}/lost-updates?after=x", "/v1/stores/{s}/lost-updates?after=2&from=1",
                "/v1/stores/{s}/search?q=a%00b", "/v1/stores/{s}/search?q=" + "w+".repeat(40),
                "/v1/stores/{s}/search?q=" + "x".repeat(2000), "/v1/stores/{s}/search?q=a&scope=BAD",
                "/v1/stores/{s}/search?q=a&limit=0", "/v1/stores/{s}/search?q=a&order=best",
                "/v1/stores/{s}/search?q=a&order=%00", "/v1/stores/{s}/search?q=a&order=relevance&offset=-1",
                "/v1/stores/{s}/search?q=a&offset=99999999999", "/v1/stores/{s}/render?max_total_bytes=1e99",
                "/v1/stores/{s}/render?max_total_bytes=99999999999", "/v1/stores/{s}/render?scope_max_bytes=user",
                "/v1/stores/{s}/render?scope=a;b", "/v1/stores/{s}/tools?scope=user&format=xml",
                "/v1/stores/{s}/sessions/s1/manifests?after=-1", "/v1/stores/{s}/sessions/s1/manifests?limit=0",
                "/v1/stores/{s}/contexts/m-1/prompt?format=xml", "/v1/stores/{s}/contexts/m-1/prompt?format=%00",
                "/v1/stores/{s}/contexts/m-1/prompt?format=" + "a".repeat(300),
                "/v1/stores/{s}/contexts/m-1/tool-results/abcd?start_line=-1",
                "/v1/stores/{s}/contexts/m-1/tool-results/abcd?num_lines=abc",
                "/v1/stores/{s}/contexts/m-1/tool-results/abcd?num_lines=0",
                "/v1/stores/{s}/contexts/m-1/tool-results/ABCD", "/v1/stores/{s}/contexts/m-1/tool-results/a%00b",
                "/v1/stores/{s}/contexts/m-1/tool-results/" + "a".repeat(65),
                "/v1/stores/{s}/tools?scope=user&context=Bad%20Id");
        Arbitrary<String> memoryStores = Arbitraries.of("?limit=-1", "?limit=abc", "?limit=1001", "?limit=1e3",
                "?page=garbage", "?page=%00", "?include_archived=maybe", "?created_at%5Bgte%5D=yesterday",
                "?created_at%5Blte%5D=2020-13-01T00:00:00Z", "/memstore_{s}/memories?depth=-1",
                "/memstore_{s}/memories?depth=x", "/memstore_{s}/memories?path_prefix=user/",
                "/memstore_{s}/memories?path_prefix=/user", "/memstore_{s}/memories?path_prefix=/../",
                "/memstore_{s}/memories?path_prefix=/a%00/", "/memstore_{s}/memories?view=huge",
                "/memstore_{s}/memories?view=%00", "/memstore_{s}/memories?page=" + "m".repeat(300),
                "/memstore_{s}/memories/{mem}?view=FULL", "/memstore_{s}/memory_versions?operation=renamed",
                "/memstore_{s}/memory_versions?operation=%00", "/memstore_{s}/memory_versions?limit=0",
                "/memstore_{s}/memory_versions?page=v-1", "/memstore_{s}/memory_versions?view=none",
                "/memstore_{s}/memory_versions?created_at%5Bgte%5D=1e99", "/memstore_{s}/memory_versions/memver_0",
                "/memstore_{s}/memory_versions/memver_99999999999999999999", "/memstore_{s}/memory_versions/memver_-1",
                "/memstore_{s}/memory_versions/mem_1", "/memstore_{s}/memory_versions?memory_id=a%00b",
                "/memstore_{s}/memory_versions?session_id=%00", "/memstore_{s}/memory_versions?api_key_id=%00",
                "/memstore_{s}/memory_versions?service_account_id=a%00", "/memstore_{s}/memories/a%00b",
                "/memstore_{s}/memories/{mem}%00")
                .map(q -> HostileRoutes.MS + q.replace("{s}", store).replace("{mem}", memory));
        Arbitrary<Attack> reads = Arbitraries.oneOf(paths.map(p -> p.replace("{s}", store)), memoryStores)
                .map(p -> new Attack("query", "GET", p, anthropic(p) ? Map.of("Authorization", "Bearer " + OP,
                        "anthropic-beta", BETA) : Map.of("Authorization", "Bearer " + OP), null));
        // an append's options: a valid append with a bad ?prompt= or ?compact= writes nothing
        Arbitrary<Attack> appends = Arbitraries.of("prompt=xml", "prompt=%00", "prompt=OPENAI-CHAT",
                "prompt=" + "a".repeat(300), "compact=yes", "compact=%00", "compact=AUTO", "compact=auto&prompt=html",
                "prompt=anthropic&compact=always").map(q -> new Attack("query", "POST", "/v1/stores/" + store
                        + "/contexts/m-1/steps?" + q, Map.of("Authorization", "Bearer " + OP, "Content-Type",
                                "application/json"), "{\"steps\": [{\"thought\": \"t\"}]}"
                                        .getBytes(StandardCharsets.UTF_8)));
        return Arbitraries.frequencyOf(Tuple.of(4, reads), Tuple.of(1, appends));
    }

    /**
     * No token, a malformed one, a read-only key that writes, another tenant's key; and x-api-key: the operator's
     * key there is no key but under /v1/memory_stores, and there a read-only or foreign key in it is refused as in
     * Authorization, as is a key in it that differs from the Bearer one.
     */
    Arbitrary<Attack> badTokens() {
        Arbitrary<String> tokens = Arbitraries.of("", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer eng_short",
                "Bearer eng_" + "x".repeat(43), "Bearer a.b.c", "Bearer " + "eyJ".repeat(100), "READ", "OTHER",
                "X-API-KEY", "X-API-KEY READ", "X-API-KEY OTHER", "X-API-KEY AS WELL");
        return Combinators.combine(Arbitraries.of(ROUTES), tokens).as((route, token) -> {
            Attack a = request("token", route, store, "user", "style", "s1", Map.of(), route.body());
            Map<String, String> headers = new LinkedHashMap<>(a.headers());
            String read = reads(route) ? null : readOnly;
            String apiKey = switch (token) {
                case "X-API-KEY" -> anthropic(a.path()) ? null : OP;
                case "X-API-KEY READ" -> read;
                case "X-API-KEY OTHER" -> otherTenant;
                case "X-API-KEY AS WELL" -> anthropic(a.path()) ? readOnly : null;
                default -> null;
            };
            String value = switch (token) {
                case "", "X-API-KEY", "X-API-KEY READ", "X-API-KEY OTHER" -> null;
                case "X-API-KEY AS WELL" -> anthropic(a.path()) ? "Bearer " + OP : null;
                case "READ" -> read == null ? null : "Bearer " + readOnly;
                case "OTHER" -> "Bearer " + otherTenant;
                default -> token;
            };
            if (value == null) {
                headers.remove("Authorization");
            } else {
                headers.put("Authorization", value);
            }
            if (apiKey != null) {
                headers.put("x-api-key", apiKey);
            }
            return new Attack("token", a.method(), a.path(), headers, a.body());
        }).filter(a -> {
            String key = key(a);
            return !(storeless(a.path()) && (readOnly.equals(key) || otherTenant.equals(key))
                    || anyTenant(a.path()) && otherTenant.equals(key));
        });
    }

    /**
     * The key a request is made with: its Bearer one, or under /v1/memory_stores its x-api-key one; null for none,
     * and for two different ones (refused).
     */
    private static String key(Attack a) {
        String auth = a.headers().getOrDefault("Authorization", "");
        String bearer = auth.startsWith("Bearer ") && !auth.substring(7).isBlank() ? auth.substring(7) : null;
        String apiKey = anthropic(a.path()) ? a.headers().get("x-api-key") : null;
        if (bearer != null && apiKey != null && !bearer.equals(apiKey)) {
            return null;
        }
        return bearer != null ? bearer : apiKey;
    }

    /** JSON-RPC that is malformed, or asks for what the connection may not do, on /mcp. */
    Arbitrary<Attack> badJsonRpc() {
        Arbitrary<String> bodies = Arbitraries.of("[]", "null", "{}", "42", "\"x\"", "{\"jsonrpc\":\"2.0\"}",
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":null}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_save\","
                        + "\"arguments\":null}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_save\","
                        + "\"arguments\":\"{\\\"name\\\":\\\"x\\\"}\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_save\","
                        + "\"arguments\":{\"name\":\"Bad Name\",\"content\":\"x\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_save\","
                        + "\"arguments\":{\"scope\":\"project\",\"name\":\"x\",\"content\":\"x\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_patch\","
                        + "\"arguments\":{\"name\":\"style\",\"old_text\":\"absent\",\"new_text\":\"x\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_forget\","
                        + "\"arguments\":{\"name\":\"missing\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_search\","
                        + "\"arguments\":{\"query\":\"a\\u0000b\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"tool_result_read\",\"arguments\":{\"hash\":\"abcd\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":"
                        + "{\"uri\":\"memory://other\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_save\","
                        + "\"arguments\":{\"name\":\"x\",\"content\":\"" + "y".repeat(5000) + "\"}}}");
        Arbitrary<Boolean> withSession = Arbitraries.of(true, true, true, false);
        Arbitrary<String> context = Arbitraries.of("", "", "&context=m-1", "&context=Bad%20Id");
        return Combinators.combine(bodies, withSession, context).as((body, session, named) -> {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Authorization", "Bearer " + OP);
            headers.put("Content-Type", "application/json");
            headers.put("Accept", "application/json, text/event-stream");
            headers.put("Mcp-Session-Id", session ? mcpSession : "no-such-session");
            return new Attack("mcp", "POST", "/mcp?store=" + store + "&scope=user" + named, headers,
                    body.getBytes(StandardCharsets.UTF_8));
        });
    }
}
