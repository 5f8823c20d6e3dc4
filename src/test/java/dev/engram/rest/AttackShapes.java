package dev.engram.rest;

import static dev.engram.rest.HostileInputTest.OP;
import static dev.engram.rest.HostileInputTest.SEED;

import static io.restassured.RestAssured.given;

import dev.engram.kernel.Sha256;
import dev.engram.rest.HostileRoutes.Route;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * What the makers of hostile requests share: the seeded store they aim at (its keys, MCP session, and the memory and
 * old version its memory store holds), a request built from a route with its slots filled, and a list sent in turn.
 * A request under /v1/memory_stores carries the API's beta header, as Anthropic's SDKs send it.
 */
abstract class AttackShapes {

    /** The id slot's value naming what the seed made: m-1 (a memory, a context), or the memory store's memory. */
    static final String SEEDED = "m-1";
    static final String BETA = "agent-memory-2026-07-22";
    /** The content of every memory the memory store routes aim at, so a precondition on it is one digest. */
    static final String MEMORY_CONTENT = "a line";

    final String store;
    final String readOnly;
    final String otherTenant;
    final String mcpSession;
    /** The seeded memory of the store's memory store ({mem}), and the version it had first ({ver}). */
    final String memory;
    final String version;

    AttackShapes(String store, String readOnly, String otherTenant, String mcpSession, String memory,
            String version) {
        this.store = store;
        this.readOnly = readOnly;
        this.otherTenant = otherTenant;
        this.mcpSession = mcpSession;
        this.memory = memory;
        this.version = version;
    }

    /** A path of the Memory Stores API, which takes the beta header and refuses in Anthropic's error envelope. */
    static boolean anthropic(String path) {
        return path.startsWith("/v1/memory_stores");
    }

    Attack request(String kind, Route route, String s, String scope, String name, String session,
            Map<String, String> extra, String body) {
        return request(kind, route, s, scope, name, session, SEEDED, "user:alice", extra, body);
    }

    /**
     * {@code id} fills {id}, and {mem} or {ver} too (a route has one of them): as {@link #SEEDED} the seeded memory
     * store memory or version, else itself (a ghost, a retry's own, a bad segment).
     */

    Attack request(String kind, Route route, String s, String scope, String name, String session, String id,
            String bank, Map<String, String> extra, String body) {
        String path = route.path().replace("{s}", s).replace("{scope}", scope).replace("{name}", name)
                .replace("{session}", session).replace("{id}", id).replace("{bank}", bank)
                .replace("{mem}", id.equals(SEEDED) ? memory : id).replace("{ver}", id.equals(SEEDED) ? version : id)
                .replace("{sha}", Sha256.hex(MEMORY_CONTENT));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + OP);
        if (anthropic(path)) {
            headers.put("anthropic-beta", BETA);
        }
        if (body != null) {
            headers.put("Content-Type", "application/json");
        }
        headers.putAll(extra);
        headers.values().removeIf(v -> v == null);
        return new Attack(kind, route.method(), path, headers, body == null ? null
                : body.replace("{s}", s).replace("{scope}", scope).replace("{name}", name)
                        .replace("{sha}", Sha256.hex(MEMORY_CONTENT)).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A memory at {@code path} of memory store {@code memoryStore} (a path of it), made with other content and then
     * given {@link #MEMORY_CONTENT}: its id and the id of its first version, which is no longer its current one.
     */
    static String[] memoryWithAnOldVersion(String memoryStore, String path) {
        String id = given().header("anthropic-beta", BETA).contentType("application/json")
                .body("{\"path\": \"" + path + "\", \"content\": \"SECRET first\"}")
                .post(memoryStore + "/memories").then().statusCode(200).extract().path("id");
        String first = given().header("anthropic-beta", BETA).get(memoryStore + "/memories/" + id).then()
                .statusCode(200).extract().path("memory_version_id");
        given().header("anthropic-beta", BETA).contentType("application/json")
                .body("{\"content\": \"" + MEMORY_CONTENT + "\"}").post(memoryStore + "/memories/" + id).then()
                .statusCode(200).body("content_sha256", org.hamcrest.Matchers.is(Sha256.hex(MEMORY_CONTENT)));
        return new String[] {id, first};
    }

    Map<String, String> mcpHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + OP);
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        headers.put("Mcp-Session-Id", mcpSession);
        return headers;
    }

    static Attack raw(String method, String path, String body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + OP);
        if (anthropic(path)) {
            headers.put("anthropic-beta", BETA);
        }
        if (body != null) {
            headers.put("Content-Type", "application/json");
        }
        return new Attack("setup", method, path, headers, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Every shape of a list in turn (in an order the seed shuffles), so that a run of N samples sends N different
     * ones and a long enough run sends each.
     */
    static <T> Arbitrary<T> cycle(List<T> all) {
        List<T> order = new ArrayList<>(all);
        Collections.shuffle(order, new Random(SEED));
        AtomicInteger next = new AtomicInteger();
        return Arbitraries.create(() -> order.get(next.getAndIncrement() % order.size()));
    }
}
