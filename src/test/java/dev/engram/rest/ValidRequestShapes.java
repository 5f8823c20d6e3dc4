package dev.engram.rest;

import static dev.engram.rest.HostileInputTest.SEED;
import static dev.engram.rest.HostileRoutes.ROUTES;
import static dev.engram.rest.HostileRoutes.bodied;
import static dev.engram.rest.HostileRoutes.stateless;
import static dev.engram.rest.JsonShapes.MARK;
import static dev.engram.rest.JsonShapes.each;
import static dev.engram.rest.JsonShapes.renamed;
import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.engram.rest.Attack.Mode;
import dev.engram.rest.HostileRoutes.Route;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Hostile requests made from each route's valid request: every MCP method with its params missing or mistyped, a
 * malformed Content-Type on every method of every route, null in every array of every body, NUL and lone surrogates
 * in every string and member name of every body, and every write sent twice under one Idempotency-Key.
 */
final class ValidRequestShapes extends AttackShapes {

    ValidRequestShapes(String store, String readOnly, String otherTenant, String mcpSession, String memory,
            String version) {
        super(store, readOnly, otherTenant, mcpSession, memory, version);
    }

    /** The params of each MCP method, as a client would send them. */
    static final Map<String, String> RPC_PARAMS = new LinkedHashMap<>();

    static {
        RPC_PARAMS.put("initialize", "{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {\"roots\": "
                + "{\"listChanged\": true}}, \"clientInfo\": {\"name\": \"h\", \"version\": \"1\"}}");
        RPC_PARAMS.put("ping", "{}");
        RPC_PARAMS.put("tools/list", "{\"cursor\": \"c\"}");
        RPC_PARAMS.put("tools/call", "{\"name\": \"memory_search\", \"arguments\": {\"query\": \"a\"}}");
        RPC_PARAMS.put("resources/list", "{\"cursor\": \"c\"}");
        RPC_PARAMS.put("resources/read", "{\"uri\": \"memory://block\"}");
        RPC_PARAMS.put("resources/subscribe", "{\"uri\": \"memory://block\"}");
        RPC_PARAMS.put("prompts/list", "{\"cursor\": \"c\"}");
        RPC_PARAMS.put("completion/complete", "{\"ref\": {\"type\": \"ref/prompt\", \"name\": \"p\"}, "
                + "\"argument\": {\"name\": \"a\", \"value\": \"b\"}}");
    }

    /** Values of every JSON type, to put where another type belongs. */
    static final List<String> WRONG = List.of("null", "[]", "\"x\"", "-1", "{}", "true", "[null]");

    /** Every MCP method with its params missing, null, an array, a string, a number, or one member mistyped. */
    Arbitrary<Attack> badParams() {
        List<String[]> bodies = new ArrayList<>();
        RPC_PARAMS.forEach((method, params) -> {
            bodies.add(new String[] {method, null});
            for (String wrong : WRONG) {
                if (!wrong.equals("{}")) {
                    bodies.add(new String[] {method, wrong});
                }
            }
            for (String mutated : each(params, (node, path) -> WRONG.stream().map(JsonShapes::read)
                    .filter(w -> w.getNodeType() != node.getNodeType()).toList())) {
                bodies.add(new String[] {method, mutated});
            }
        });
        return Combinators.combine(cycle(bodies), Arbitraries.of(true, true, false)).as((b, session) -> {
            String body = "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"" + b[0] + "\""
                    + (b[1] == null ? "" : ", \"params\": " + b[1]) + "}";
            Map<String, String> headers = mcpHeaders();
            if (b[0].equals("initialize") || !session) {
                headers.remove("Mcp-Session-Id");
            }
            return new Attack("params", "POST", "/mcp?store=" + store + "&scope=user", headers,
                    body.getBytes(StandardCharsets.UTF_8)).with(Mode.ANY, List.of());
        });
    }

    /**
     * A malformed Content-Type on every method of every route. A request with a body must be refused; one without
     * may be answered as if the header were absent (its DELETEs aim at what does not exist, to leave the seed).
     */
    Arbitrary<Attack> badContentTypes() {
        List<Route> routes = new ArrayList<>(ROUTES);
        routes.add(new Route("POST", "/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}"));
        List<Map.Entry<Route, String>> pairs = new ArrayList<>();
        for (Route route : routes) {
            for (String type : List.of("a", "/", "application/", ";;", "text/plain; charset=")) {
                pairs.add(Map.entry(route, type));
            }
        }
        return cycle(pairs).map(pair -> {
            Route route = pair.getKey();
            String type = pair.getValue();
            boolean delete = route.method().equals("DELETE");
            Attack a = route.path().equals("/mcp")
                    ? new Attack("content-type", "POST", "/mcp?store=" + store + "&scope=user", mcpHeaders(),
                            route.body().getBytes(StandardCharsets.UTF_8))
                    : request("content-type", route, store, "user", delete ? "ghost" : "style", "s1",
                            delete ? "ghost" : SEEDED, "user:alice", Map.of(), route.body());
            Map<String, String> headers = new LinkedHashMap<>(a.headers());
            headers.put("Content-Type", type);
            boolean bodyless = route.body() == null || route.body().isEmpty();
            return new Attack(a.kind(), a.method(), a.path(), headers, a.body()).with(bodyless ? Mode.ANY
                    : Mode.REFUSE, List.of());
        });
    }

    /** {@code null} as a member of every array of every body (one array at a time): refused, nothing written. */
    Arbitrary<Attack> nullsInArrays() {
        List<Attack> attacks = new ArrayList<>();
        for (Route route : bodied()) {
            for (String body : each(route.body(), (node, path) -> {
                if (!node.isArray()) {
                    return List.of();
                }
                var first = node.deepCopy();
                ((ArrayNode) first).insertNull(0);
                var last = node.deepCopy();
                ((ArrayNode) last).addNull();
                return node.isEmpty() ? List.of(last) : List.of(first, last);
            })) {
                attacks.add(request("null", route, store, "user", "style", "s1", Map.of(), body));
            }
        }
        nullsMade = attacks.size();
        return cycle(attacks);
    }

    /**
     * NUL and lone surrogates in every string of every body, one string value or member name at a time: refused
     * with a problem (the one text rule), nothing written; a stateless transform may answer, but never with a 5xx.
     */
    Arbitrary<Attack> badTexts() {
        List<Attack> attacks = new ArrayList<>();
        for (Route route : bodied()) {
            List<String> marked = new ArrayList<>(each(route.body(), (node, path) -> node.isTextual()
                    ? List.of(TextNode.valueOf(node.asText() + MARK)) : List.of()));
            marked.addAll(renamed(route.body()));
            for (String body : marked) {
                for (String bad : List.of("\\u0000", "\\ud800", "\\udc00")) {
                    Attack a = request("text", route, store, "user", "style", "s1", Map.of(), body.replace(MARK, bad));
                    attacks.add(stateless(route) ? a.with(Mode.ANY, List.of()) : a);
                }
            }
        }
        textsMade = attacks.size();
        return cycle(attacks);
    }

    int nullsMade;
    int textsMade;

    /** Distinct names for what each retry creates, so that its first write is a valid one. */
    private final AtomicInteger fresh = new AtomicInteger();

    /**
     * Every write route, a valid write sent twice with one Idempotency-Key (after what it needs was made): the
     * second answer is the first replayed ({@code Idempotent-Replayed: true}, the same body) or both are refused
     * with idempotency-key-not-taken, and the second writes nothing. The Memory Stores API keeps no key (Anthropic's
     * SDKs send none): each of its writes refuses one, in the envelope.
     */
    Arbitrary<Attack> retries() {
        List<Route> writes = ROUTES.stream().filter(r -> !r.method().equals("GET") && !stateless(r)
                && !r.path().contains("/search") && !(r.body() != null && r.body().contains("tool_result_read")))
                .toList();
        return cycle(writes).map(route -> retry(route, fresh.incrementAndGet()));
    }

    private Attack retry(Route route, int n) {
        String name = "idem-" + n;
        String base = "/v1/stores/" + store;
        List<Attack> setup = new ArrayList<>();
        String path = route.path();
        String id = name;
        if (path.contains("/entries/{name}") && !route.method().equals("PUT")) {
            setup.add(raw("PUT", base + "/scopes/user/entries/" + name, "{\"content\": \"SECRET kept\"}"));
        }
        if (path.contains("/memories/{id}") && !(route.method().equals("PUT") && path.endsWith("{id}"))) {
            setup.add(raw("PUT", base + "/memories/" + name, "{\"content\": \"a fact\"}"));
        }
        if (path.contains("/contexts/{id}") && !(route.method().equals("PUT") && path.endsWith("{id}"))) {
            setup.add(raw("PUT", base + "/contexts/" + name, "{}"));
            if (path.endsWith("/interjection") && route.method().equals("DELETE")) {
                setup.add(raw("PUT", base + "/contexts/" + name + "/interjection", "{\"text\": \"stop\"}"));
            }
        }
        if (path.contains("/mental-models/{id}") && route.method().equals("DELETE")) {
            setup.add(raw("PUT", base + "/mental-models/" + name, "{\"name\": \"n\"}"));
        }
        if (path.contains("/slots/SOUL") && !route.method().equals("PUT")) {
            setup.add(raw("PUT", base + "/banks/user:" + name + "/slots/SOUL", "{\"text\": \"x\"}"));
        }
        String nameSlot = name;
        if (path.equals("/v1/keys/key_{name}")) {
            // the key to revoke is made now; the GET below only marks that the snapshot is taken after it
            String made = given().contentType("application/json").body("{\"name\": \"" + name + "\", \"grants\": "
                    + "[{\"stores\": \"" + store + "\", \"role\": \"read\"}]}").post("/v1/keys").then()
                    .statusCode(201).extract().path("id");
            nameSlot = made.substring("key_".length());
            setup.add(raw("GET", "/v1/keys", null));
        }
        String body = route.body();
        if (path.endsWith("/supersede")) {
            setup.add(raw("PUT", base + "/memories/" + name + "-by", "{\"content\": \"a newer fact\"}"));
            body = "{\"by\": \"" + name + "-by\"}";
        }
        if (path.endsWith("/unarchive")) {
            setup.add(raw("POST", base + "/memories/" + name + "/archive", "{\"reason\": \"old\"}"));
        }
        if (anthropic(path)) {
            String memoryStore = "/v1/memory_stores/memstore_" + store;
            if (path.contains("-{name}")) {
                setup.add(raw("PUT", base + "-" + name + "/scopes/user/entries/x", "{\"content\": \"x\"}"));
            }
            if (path.contains("{mem}") || path.contains("{ver}")) {
                // made now, as the key to revoke is (the server picks a memory's id); the GET marks the snapshot
                String[] made = memoryWithAnOldVersion(memoryStore, "/user/" + name + ".md");
                id = path.contains("{mem}") ? made[0] : made[1];
                setup.add(raw("GET", memoryStore, null));
            }
        }
        Attack a = request("retry", route, store, "user", nameSlot, name, id, "user:" + name,
                Map.of("Idempotency-Key", "retry-" + SEED + "-" + n), body);
        if (path.endsWith("/import")) {
            // the import's valid request is an archive; under a key it is refused (it keeps none) and writes nothing
            Map<String, String> headers = new java.util.LinkedHashMap<>(a.headers());
            headers.put("Content-Type", "application/gzip");
            a = new Attack(a.kind(), a.method(), a.path(), headers, dev.engram.stores.files.rest.Tars.files(
                    Map.of("user/" + name + ".md", "imported\n")));
        }
        return a.with(Mode.RETRY, setup);
    }
}
