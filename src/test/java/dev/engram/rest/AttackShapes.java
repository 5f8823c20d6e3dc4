package dev.engram.rest;

import static dev.engram.rest.HostileInputTest.OP;
import static dev.engram.rest.HostileInputTest.SEED;

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
 * What the makers of hostile requests share: the seeded store they aim at (its keys and MCP session), a request
 * built from a route with its slots filled, and a list sent in turn.
 */
abstract class AttackShapes {

    final String store;
    final String readOnly;
    final String otherTenant;
    final String mcpSession;

    AttackShapes(String store, String readOnly, String otherTenant, String mcpSession) {
        this.store = store;
        this.readOnly = readOnly;
        this.otherTenant = otherTenant;
        this.mcpSession = mcpSession;
    }

    Attack request(String kind, Route route, String s, String scope, String name, String session,
            Map<String, String> extra, String body) {
        return request(kind, route, s, scope, name, session, "m-1", "user:alice", extra, body);
    }

    Attack request(String kind, Route route, String s, String scope, String name, String session, String id,
            String bank, Map<String, String> extra, String body) {
        String path = route.path().replace("{s}", s).replace("{scope}", scope).replace("{name}", name)
                .replace("{session}", session).replace("{id}", id).replace("{bank}", bank);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + OP);
        if (body != null) {
            headers.put("Content-Type", "application/json");
        }
        headers.putAll(extra);
        headers.values().removeIf(v -> v == null);
        return new Attack(kind, route.method(), path, headers, body == null ? null
                : body.replace("{s}", s).replace("{scope}", scope).replace("{name}", name)
                        .getBytes(StandardCharsets.UTF_8));
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
