package dev.engram.rest;

import static dev.engram.rest.HostileRoutes.ROUTES;
import static dev.engram.rest.HostileVerdicts.abbreviate;
import static dev.engram.rest.HostileVerdicts.join;
import static dev.engram.rest.HostileVerdicts.judge;
import static dev.engram.rest.HostileVerdicts.judgeRetry;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.TestAuth;
import dev.engram.rest.Attack.Answer;
import dev.engram.rest.Attack.Mode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;
import net.jqwik.engine.SourceOfRandomness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile input, generated: jqwik builds malformed requests against every route (bad path segments, bodies that
 * are not JSON, not UTF-8 or break a rule, bad headers and query parameters, missing and foreign tokens, broken
 * JSON-RPC on /mcp) and each one is sent over real HTTP. Shapes are also made from each route's valid request: every
 * MCP method with its params missing or mistyped, a malformed Content-Type on every method of every route, null in
 * every array of every body, NUL and lone surrogates in every string and member name of every body (one at a time),
 * and every write sent twice under one Idempotency-Key. Every answer must be a 4xx problem+json (on /mcp, a 4xx or a
 * JSON-RPC error; under /v1/memory_stores, sent with its beta header, Anthropic's error envelope with the error type
 * of its status), never a 5xx nor no answer, and PostgreSQL must hold exactly what it held before the request; a
 * retry must replay the first answer ({@code Idempotent-Replayed: true}, the same body) or both be refused with
 * idempotency-key-not-taken, the second writing nothing. The seed is fixed so a failure repeats; 2,000 requests a
 * build. {@code -Dhostile.seed=N -Dhostile.requests=10000} runs 10,000 from another seed ({@code -Dhostile.shown=N}
 * lists more of the failures than the first 40). The requests are made by {@link MalformedRequests} and
 * {@link ValidRequestShapes}, judged by {@link HostileVerdicts}.
 */
@QuarkusTest
class HostileInputTest {

    static final long SEED = Long.getLong("hostile.seed", 20261129L);
    static final int REQUESTS = Integer.getInteger("hostile.requests", 2000);
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final String OP = TestAuth.OPERATOR_KEY;

    @Inject
    AgroalDataSource db;

    @TestHTTPResource("/")
    URI base;

    String store;
    String readOnly;
    String otherTenant;
    String mcpSession;
    String memory;
    String version;

    @BeforeEach
    void seed() throws Exception {
        store = "hostile-" + Long.toHexString(new Random().nextLong() & 0xffffffL);
        for (String scope : List.of("user", "project")) {
            Api.json().body("{\"content\": \"SECRET " + scope + " text\"}").put(Api.entry(store, scope, "style"))
                    .then().statusCode(201);
        }
        given().contentType("application/json").post("/v1/stores/" + store + "/sessions/s1/render?scope=user")
                .then().statusCode(200);
        Api.json().body("{}").put("/v1/stores/" + store + "/contexts/m-1").then().statusCode(201);
        Api.json().body("{\"steps\": [{\"thought\": \"SECRET\", \"action\": {\"id\": \"c\", \"name\": \"cat\"}, "
                + "\"observation\": \"o\", \"cache\": true}]}").post("/v1/stores/" + store + "/contexts/m-1/steps")
                .then().statusCode(200);
        String memoryStore = "/v1/memory_stores/memstore_" + store;
        given().header("anthropic-beta", AttackShapes.BETA).contentType("application/json")
                .body("{\"name\": \"hostile\", \"metadata\": {\"k\": \"v\"}}").post(memoryStore).then()
                .statusCode(200);
        String[] made = AttackShapes.memoryWithAnOldVersion(memoryStore, "/user/seeded.md");
        memory = made[0];
        version = made[1];
        // the store of its own that DELETE /v1/memory_stores/memstore_{s}-style aims at
        Api.json().body("{\"content\": \"SECRET kept\"}").put(Api.entry(store + "-style", "user", "style")).then()
                .statusCode(201);
        readOnly = key("hostile-read", "[{\"stores\": \"" + store + "\", \"role\": \"read\"}]");
        otherTenant = key("hostile-other", "[{\"stores\": \"elsewhere-*\", \"role\": \"admin\"}]");
        var init = given().contentType("application/json").accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"h\",\"version\":\"1\"}}}")
                .post("/mcp?store=" + store + "&scope=user");
        assertEquals(200, init.statusCode(), init.asString());
        mcpSession = init.header("Mcp-Session-Id");
    }

    private static String key(String name, String grants) {
        return given().contentType("application/json").body("{\"name\": \"" + name + "\", \"grants\": " + grants + "}")
                .post("/v1/keys").then().statusCode(201).extract().path("key");
    }

    @Test
    void noMalformedRequestIsAnsweredWithA5xxOrWritesAnything() throws Exception {
        // Outside jqwik's own engine (Quarkus runs this test) an arbitrary is sampled, from the thread's source of
        // randomness, seeded here so the run repeats.
        SourceOfRandomness.create(Long.toString(SEED));
        var samples = attacks().sampleStream().iterator();
        Map<String, Integer> kinds = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        String before = snapshot();
        int sent = 0;
        long started = System.nanoTime();
        for (int i = 0; sent < REQUESTS; i++) {
            Attack a = samples.next();
            kinds.merge(a.kind(), 1, Integer::sum);
            for (Attack s : a.setup()) {
                send(s);
                sent++;
            }
            if (!a.setup().isEmpty()) {
                before = snapshot();
            }
            Answer r = send(a);
            sent++;
            String why = judge(a, r);
            String after = snapshot();
            if (a.mode() == Mode.RETRY) {
                Answer again = send(a);
                sent++;
                why = join(why, judgeRetry(a, r, again));
                String last = snapshot();
                if (!last.equals(after)) {
                    why = join(why, "the retry wrote: " + after + " -> " + last);
                }
                if (r.statusCode() >= 300 && !after.equals(before)) {
                    why = join(why, "a refused first write wrote: " + before + " -> " + after);
                }
                r = again;
                after = last;
            } else if (!after.equals(before) && !(a.mode() == Mode.ANY && r.statusCode() < 300)) {
                why = join(why, "it wrote: " + before + " -> " + after);
            }
            before = after;
            if (why != null) {
                failures.add("#" + i + " " + a + "\n    -> " + r.statusCode() + " " + r.headers()
                        .firstValue("Content-Type").orElse("") + " " + abbreviate(r.body()) + "\n    " + why);
            }
        }
        System.out.printf("hostile: shapes made from valid requests: %d nulls, %d texts, %d content types%n",
                shapes.nullsMade, shapes.textsMade, ROUTES.size() * 5 + 5);
        System.out.printf("hostile: %d requests in %d ms, %d ms of it in %d snapshots (%d read the tables); "
                + "kinds %s%n", sent, (System.nanoTime() - started) / 1_000_000, snapshotNanos / 1_000_000, snapshots,
                snapshotsTaken, kinds);
        if (!failures.isEmpty()) {
            fail(failures.size() + " hostile cases in " + sent + " requests (seed " + SEED + ") were mishandled:\n"
                    + String.join("\n", failures.subList(0, Math.min(Integer.getInteger("hostile.shown", 40),
                            failures.size()))));
        }
        assertTrue(kinds.size() == 11 && kinds.values().stream().allMatch(n -> n >= REQUESTS / 100),
                "every kind of attack was generated, each often: " + kinds);
    }

    private Answer send(Attack a) throws Exception {
        try {
            HttpResponse<String> r = exchange(a);
            return new Answer(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            return new Answer(0, HttpHeaders.of(Map.of(), (x, y) -> true), "no answer: " + e);
        }
    }

    private HttpResponse<String> exchange(Attack a) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + a.path()))
                .timeout(Duration.ofSeconds(5))
                .method(a.method(), a.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(a.body()));
        a.headers().forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    // ------------------------------------------------------------------------------------------------ generators

    /** Counts of the shapes made from valid requests, printed after the run. */
    private ValidRequestShapes shapes;

    private Arbitrary<Attack> attacks() {
        MalformedRequests malformed = new MalformedRequests(store, readOnly, otherTenant, mcpSession, memory, version);
        shapes = new ValidRequestShapes(store, readOnly, otherTenant, mcpSession, memory, version);
        return Arbitraries.frequencyOf(
                Tuple.of(3, malformed.badSegments()),
                Tuple.of(3, malformed.badBodies()),
                Tuple.of(2, malformed.badHeaders()),
                Tuple.of(2, malformed.badQueries()),
                Tuple.of(2, malformed.badTokens()),
                Tuple.of(3, malformed.badJsonRpc()),
                Tuple.of(3, shapes.badParams()),
                Tuple.of(3, shapes.badContentTypes()),
                Tuple.of(2, shapes.nullsInArrays()),
                Tuple.of(4, shapes.badTexts()),
                Tuple.of(3, shapes.retries()));
    }

    // ------------------------------------------------------------------------------------------------ the database

    /** Every table a request could write, in figures that change when anything is written. */
    private long snapshotNanos;
    private int snapshots;
    private int snapshotsTaken;
    /** The database's transaction snapshot when {@link #last} was taken, and that snapshot of the tables. */
    private String lastMark;
    private String last;

    /**
     * The tables' figures, read again only when a transaction took an ID since they were last read. PostgreSQL gives
     * a transaction an ID before it inserts, updates, deletes or locks a row (or calls a sequence that logs), and its
     * snapshot's xmax passes that ID once the transaction ends, so an unchanged snapshot proves that nothing was
     * written: a stronger check than the figures, and it costs one call where they scan the suite's every table.
     */
    private String snapshot() throws Exception {
        long t = System.nanoTime();
        try (Connection c = db.getConnection()) {
            String mark = one(c, "select pg_current_snapshot()::text");
            if (!mark.equals(lastMark)) {
                last = takeSnapshot(c);
                lastMark = mark;
                snapshotsTaken++;
            }
            return last;
        } finally {
            snapshotNanos += System.nanoTime() - t;
            snapshots++;
        }
    }

    private static String one(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    private String takeSnapshot(Connection c) throws Exception {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("select "
                        + "(select count(*) || '/' || coalesce(sum(seq), 0) || '/' || coalesce(sum(max_entry_bytes), 0)"
                        + " from store), "
                        // A table's rows by their count and the sum of their creating transactions: any insert,
                        // update or delete moves one of them, and no row's text is read (hashing the suite's every
                        // entry, step and document made a snapshot cost over a tenth of a second, 2,000 times).
                        + "(select count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) from entry), "
                        + "(select count(*) || '/' || count(erased_by) from journal), "
                        + "(select count(*) from session_manifest), (select count(*) from idempotency), "
                        + "(select count(*) || '/' || count(revoked_at) from api_key), "
                        + "(select count(*) from store_creator), "
                        + "(select count(*) || '/' || count(archived_at) from memory), "
                        + "(select (select count(*) from bank_slot) + (select count(*) from bank_settings) "
                        + "+ (select count(*) from mental_model)), "
                        + "(select count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) || '/' "
                        + "|| (select count(*) from tool_result) || '/' || (select count(*) || '/' "
                        + "|| coalesce(sum(xmin::text::bigint), 0) from context_step) from context), "
                        + "(select count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) from document), "
                        + "(select count(*) || '/' || md5(coalesce(string_agg(store_id || name || description "
                        + "|| metadata::text || updated_at || coalesce(archived_at::text, 'live'), ',' "
                        + "order by store_id), '')) from store_profile), "
                        // Records changed in place (a redaction) only in the stores these requests aim at: hashing
                        // every record of the suite's journal made each snapshot cost a quarter of a second in CI.
                        + "(select md5(coalesce(string_agg(store_id || seq || record::text, ',' order by store_id, "
                        + "seq), '')) from journal where record is not null and store_id in ('" + store + "', '"
                        + store + "-style'))")) {
            r.next();
            List<String> parts = new ArrayList<>();
            for (int i = 1; i <= 13; i++) {
                parts.add(r.getString(i));
            }
            return String.join(" ", parts);
        }
    }
}
