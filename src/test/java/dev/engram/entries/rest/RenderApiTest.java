package dev.engram.entries.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.ManifestFold;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The block over HTTP, the session manifest log, and the pure manifest helpers. */
@QuarkusTest
class RenderApiTest {

    @Inject
    AgroalDataSource db;

    static String golden(String file) throws Exception {
        try (InputStream in = RenderApiTest.class.getResourceAsStream("/golden/render/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String oneScope() {
        String s = Api.newStore();
        put(s, "user", "style", "{\"content\":\"Short answers.\\n\\nCode in Go.\\n\",\"meta\":{\"description\":"
                + "\"How the user likes answers\",\"type\":\"feedback\"}}").then().statusCode(201);
        put(s, "user", "timezone", "{\"content\":\"Europe/London\"}").then().statusCode(201);
        put(s, "project", "unlisted", "{\"content\":\"not in the scopes\"}").then().statusCode(201);
        return s;
    }

    @Test
    void theBlockFromPostgresIsTheReferenceBytes() throws Exception {
        String s = oneScope();
        String block = given().queryParam("scope", "user").get("/v1/stores/" + s + "/render").then().statusCode(200)
                .contentType(startsWith("text/markdown"))
                .header(RenderResource.MANIFEST_HASH, startsWith("sha256:"))
                .extract().asString();
        assertEquals(golden("one-scope.md"), block);

        String two = Api.newStore();
        put(two, "user", "editor", "{\"content\":\"Neovim, dark theme — süß ✓ 日本\\n\",\"meta\":{\"description\":"
                + "\"Editor\"}}").then().statusCode(201);
        put(two, "project", "build", "{\"content\":\"#### Build\\n\\nRun `make check` before a commit.\\n\"}")
                .then().statusCode(201);
        byte[] bytes = given().queryParam("scope", "user").queryParam("scope", "project")
                .get("/v1/stores/" + two + "/render").then().statusCode(200).extract().asByteArray();
        assertEquals(golden("two-scopes.md"), new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    void jsonCarriesPartsManifestAndItsHash() throws Exception {
        String s = oneScope();
        JsonPath j = given().accept("application/json").queryParam("scope", "user")
                .get("/v1/stores/" + s + "/render").then().statusCode(200).extract().jsonPath();
        assertEquals(golden("one-scope.md"), j.getString("block"));
        assertEquals(List.of("memory", "memory/user", "memory/user/style", "memory/user/timezone", "memory:summary"),
                j.getList("parts.id"));
        assertEquals(List.of("style", "timezone"), j.getList("manifest.entries.name"));
        assertEquals(Manifest.apply(Manifest.EMPTY, golden("one-scope.manifest.json")).hash(),
                j.getString("manifest_hash"));
    }

    @Test
    void noScopesRendersEveryScopeAndAStoreNeverWrittenRendersEmpty() {
        String s = oneScope();
        given().get("/v1/stores/" + s + "/render").then().statusCode(200)
                .body(containsString("## project\n\n### unlisted"))
                .body(containsString("## user\n\n### style"));
        given().queryParam("scope", "user").get("/v1/stores/" + Api.newStore() + "/render").then().statusCode(200)
                .body(startsWith("# Memory\n\n## user\n\nNo entries.\n\nEntries: 0 shown, 0 omitted."));
    }

    @Test
    void boundsAndCapsAreRespectedAndABoundTooSmallSaysTheFloor() {
        String s = Api.newStore();
        for (int i = 0; i < 8; i++) {
            put(s, "environment", "env-" + i, "{\"content\":\"" + "e".repeat(59) + "\"}").then().statusCode(201);
        }
        put(s, "user", "name", "{\"content\":\"Ada\"}").then().statusCode(201);
        JsonPath capped = given().accept("application/json").queryParam("scope", "environment")
                .queryParam("scope", "user").queryParam("max_total_bytes", "1000")
                .queryParam("scope_max_bytes", "environment:300").get("/v1/stores/" + s + "/render")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("name"), capped.getList("manifest.entries.findAll { it.scope == 'user' }.name"));
        String block = capped.getString("block");
        assertEquals(true, block.contains("Not shown, over the block budget; fetch with memory_search: env-"));
        int needed = given().queryParam("scope", "user").queryParam("max_total_bytes", "50")
                .get("/v1/stores/" + s + "/render").then().statusCode(422)
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/render-budget"))
                .body("bound", equalTo(50))
                .extract().path("needed");
        given().queryParam("scope", "user").queryParam("max_total_bytes", String.valueOf(needed))
                .get("/v1/stores/" + s + "/render").then().statusCode(200)
                .body(containsString("Block: " + needed + " of " + needed + " bytes (  0 free)"));
        given().queryParam("scope", "user").queryParam("max_total_bytes", String.valueOf(needed - 1))
                .get("/v1/stores/" + s + "/render").then().statusCode(422)
                .body("needed", equalTo(needed)).body("detail", containsString(String.valueOf(needed)));
        given().queryParam("max_total_bytes", "-1").get("/v1/stores/" + s + "/render").then().statusCode(422)
                .body("type", equalTo("https://engram.dev/problems/render-budget"));
        given().queryParam("scope_max_bytes", "user").get("/v1/stores/" + s + "/render").then().statusCode(422)
                .body("rule", equalTo("scope-cap-form"));
        given().queryParam("scope_max_bytes", "user:-5").get("/v1/stores/" + s + "/render").then().statusCode(422)
                .body("type", equalTo("https://engram.dev/problems/render-budget"));
        given().queryParam("scope", "user").queryParam("scope", "user").get("/v1/stores/" + s + "/render")
                .then().statusCode(422).body("rule", equalTo("scope-repeated"));
        given().queryParam("max_total_bytes", "lots").get("/v1/stores/" + s + "/render").then().statusCode(422)
                .body("rule", equalTo("number-range"));
    }

    @Test
    void aSessionRenderRecordsOnlyWhenTheManifestMoves() {
        String s = oneScope();
        for (int i = 0; i < 12; i++) {
            put(s, "user", "fact-" + i, "{\"content\":\"Fact " + i + ".\"}").then().statusCode(201);
        }
        String path = "/v1/stores/" + s + "/sessions/slack-7f3a/render?scope=user";
        JsonPath first = Api.json().accept("application/json").post(path).then().statusCode(200).extract().jsonPath();
        assertEquals(true, first.getBoolean("recorded"));
        assertEquals(1, first.getInt("record_seq"));
        org.junit.jupiter.api.Assertions.assertNull(first.get("record.base"), "the first record is whole");
        Api.json().accept("application/json").post(path).then().statusCode(200)
                .body("recorded", equalTo(false)).body("record", nullValue());
        Api.json().post(path).then().statusCode(200).header("Engram-Manifest-Recorded", "false")
                .contentType(startsWith("text/markdown"));

        put(s, "user", "timezone", "{\"content\":\"Europe/Paris\"}").then().statusCode(200);
        JsonPath moved = Api.json().accept("application/json").post(path).then().statusCode(200).extract().jsonPath();
        assertEquals(true, moved.getBoolean("recorded"));
        assertEquals(first.getString("manifest_hash"), moved.getString("record.base"), "a delta on the one before");
        assertEquals(List.of(Map.of("keep", 13)), moved.getList("record.entries").subList(0, 1),
                "the 12 facts and style stand; timezone, last by name, moved");

        JsonPath log = given().get("/v1/stores/" + s + "/sessions/slack-7f3a/manifests").then().statusCode(200)
                .body("records.seq", contains(1, 2))
                .body("manifest_hash", equalTo(moved.getString("manifest_hash")))
                .extract().jsonPath();
        ManifestFold fold = new ManifestFold();
        for (Object record : log.getList("records.record")) {
            fold.apply(toJson(record));
        }
        assertEquals(moved.getString("manifest_hash"), fold.manifest().hash(), "the log folds to the manifest in force");
        given().get("/v1/stores/" + s + "/sessions/nobody/manifests").then().statusCode(200)
                .body("records.size()", equalTo(0)).body("manifest.entries.size()", equalTo(0));
        Api.json().urlEncodingEnabled(false).accept("application/json")
                .post("/v1/stores/" + s + "/sessions/bad%20session/render")
                .then().statusCode(422).body("rule", equalTo("session-format"));
    }

    @Test
    void aTurnWithoutTheBlockIsRecordedAsEveryEntryOmittedForThatReason() {
        String s = oneScope();
        String path = "/v1/stores/" + s + "/sessions/slack-7f3a/render?scope=user";
        JsonPath shown = Api.json().accept("application/json").post(path).then().statusCode(200).extract().jsonPath();
        JsonPath left = Api.json().accept("application/json").post(path + "&omit=block").then().statusCode(200)
                .body("block", equalTo("")).body("parts.size()", equalTo(0)).body("recorded", equalTo(true))
                .body("record_seq", equalTo(2)).body("manifest.entries.size()", equalTo(0))
                .body("manifest.omitted.name", contains("style", "timezone"))
                .body("manifest.omitted.reason", contains("block", "block"))
                .extract().jsonPath();
        assertEquals(shown.getString("manifest.entries[1].hash"), left.getString("manifest.omitted[1].hash"));
        assertEquals(shown.getInt("manifest.entries[1].bytes"), left.getInt("manifest.omitted[1].bytes"));
        Api.json().accept("application/json").post(path + "&omit=block").then().statusCode(200)
                .body("recorded", equalTo(false));
        Api.json().post(path + "&omit=block").then().statusCode(200).contentType(startsWith("text/markdown"))
                .header("Engram-Manifest-Recorded", "false").header("Engram-Manifest-Hash",
                        left.getString("manifest_hash"));
        given().get("/v1/stores/" + s + "/sessions/slack-7f3a/manifests").then().statusCode(200)
                .body("records.seq", contains(1, 2)).body("manifest_hash", equalTo(left.getString("manifest_hash")))
                .body("manifest.entries.size()", equalTo(0));
        Api.json().accept("application/json").post(path).then().statusCode(200).body("recorded", equalTo(true))
                .body("manifest_hash", equalTo(shown.getString("manifest_hash")));
        Api.json().post(path + "&omit=budget").then().statusCode(422).body("rule", equalTo("omit-value"));
        Api.json().post(path + "&omit=block&max_total_bytes=100").then().statusCode(422)
                .body("rule", equalTo("omit-bounds"));
        Api.json().post("/v1/stores/" + Api.newStore() + "/sessions/x/render?omit=block").then().statusCode(404);
    }

    @Test
    void aSessionRenderOfAStoreThatDoesNotExistIs404AndRecordsNothing() throws Exception {
        String never = Api.newStore();
        given().contentType("application/json").accept("application/json")
                .post("/v1/stores/" + never + "/sessions/slack-7f3a/render?scope=user")
                .then().statusCode(404).contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/not-found"))
                .body("detail", containsString(never));
        given().contentType("application/json").post("/v1/stores/" + never + "/sessions/slack-7f3a/render").then()
                .statusCode(404);
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(
                "select count(*) from session_state where store_id = ?")) {
            q.setString(1, never);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                assertEquals(0, r.getInt(1));
            }
        }
    }

    @Test
    void aBoundChangedByAnotherReplicaIsRenderedAtOnce() throws Exception {
        String s = Api.newStore();
        Api.json().body("{\"max_entry_bytes\":4000}").put("/v1/stores/" + s).then().statusCode(201);
        put(s, "user", "name", "{\"content\":\"Ada\"}").then().statusCode(201);
        given().queryParam("scope", "user").get("/v1/stores/" + s + "/render").then().statusCode(200)
                .body(containsString("### name (3 of 4000 bytes)"));
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(
                "update store set max_entry_bytes = 5000 where id = ?")) {
            q.setString(1, s);
            assertEquals(1, q.executeUpdate(), "another replica raises the bound");
        }
        given().queryParam("scope", "user").get("/v1/stores/" + s + "/render").then().statusCode(200)
                .body(containsString("### name (3 of 5000 bytes)"))
                .body(containsString("Entry limit: 5000 bytes."));
        given().contentType("application/json").accept("application/json")
                .post("/v1/stores/" + s + "/sessions/slack-7f3a/render?scope=user")
                .then().statusCode(200).body("block", containsString("Entry limit: 5000 bytes."));
    }

    /**
     * A render is kept while the store's entries are unchanged; every write function moves the store's entries
     * version, so a change made through another replica (the functions called here straight over JDBC, as that
     * replica would) is in the next render of this one, and a change of another tier is not a change of the block.
     */
    @Test
    void aChangeMadeThroughAnotherReplicaIsInTheNextRender() throws Exception {
        String s = Api.newStore();
        put(s, "user", "name", "{\"content\":\"Ada\"}").then().statusCode(201);
        String first = renderUser(s);
        assertEquals(first, renderUser(s), "kept, and the same bytes");

        call("select seq from engram_put(?, 4096, 'user', 'tz', 'Europe/London', '{}', 'sha256:x', 'tz', '', null, "
                + "null)", s);
        assertThat(renderUser(s), containsString("Europe/London"));
        call("select seq from engram_forget(?, 'user', 'tz', '', null, null)", s);
        assertThat(renderUser(s), not(containsString("Europe/London")));
        call("select seq from engram_erase(?, 'user', 'name', 'dpo', 'request 7')", s);
        assertThat(renderUser(s), not(containsString("Ada")));

        put(s, "user", "name", "{\"content\":\"Grace\"}").then().statusCode(201);
        String grace = renderUser(s);
        assertThat(grace, containsString("Grace"));
        given().contentType("application/json").body("{\"bank\":{\"type\":\"global\"},\"type\":\"fact\","
                + "\"content\":\"Not an entry.\"}").post("/v1/stores/" + s + "/memories").then().statusCode(201);
        assertEquals(grace, renderUser(s));
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(
                "select entries_version from store where id = ?")) {
            q.setString(1, s);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                assertEquals(5, r.getLong(1), "two puts, a put and a forget by the other replica, an erasure; "
                        + "the memory saved is not a change of the entries");
            }
        }
    }

    private static String renderUser(String store) {
        return given().queryParam("scope", "user").get("/v1/stores/" + store + "/render").then().statusCode(200)
                .extract().asString();
    }

    private void call(String sql, String store) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, store);
            try (ResultSet r = q.executeQuery()) {
                assertTrue(r.next(), sql);
            }
        }
    }

    /** A manifest of n entries as JSON, entry {@code changed} with another hash. */
    private static String manifest(int n, int changed) {
        StringBuilder b = new StringBuilder("{\"entries\":[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append("{\"scope\":\"user\",\"name\":\"fact-").append(i)
                    .append("\",\"hash\":\"sha256:").append(i == changed ? "changed" : String.valueOf(i))
                    .append("\",\"bytes\":").append(i + 1).append('}');
        }
        return b.append("]}").toString();
    }

    private static String toJson(Object parsed) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(parsed);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void thePureHelpersRecordApplyAndFold() {
        String prev = manifest(20, -1);
        String next = manifest(20, 1);
        JsonPath rec = Api.json().body("{\"manifest\":" + next + ",\"prev\":" + prev + "}")
                .post("/v1/manifests/record-since").then().statusCode(200).extract().jsonPath();
        assertEquals("delta", rec.getString("form"));
        assertEquals(List.of(Map.of("keep", 1)), rec.getList("record.entries").subList(0, 1));
        assertEquals("whole", Api.json().body("{\"manifest\":" + next + "}").post("/v1/manifests/record-since")
                .then().statusCode(200).extract().path("form"), "with no prev, the whole record");
        String record = toJson(rec.getMap("record"));
        Api.json().body("{\"manifest\":" + prev + ",\"record\":" + record + "}").post("/v1/manifests/apply")
                .then().statusCode(200).body("manifest.entries[1].hash", equalTo("sha256:changed"));
        Api.json().body("{\"manifest\":" + next + ",\"record\":" + record + "}").post("/v1/manifests/apply")
                .then().statusCode(422).body("rule", equalTo("manifest-base"));
        Api.json().body("{\"records\":[" + prev + "," + record + "],\"next\":" + prev + "}").post("/v1/manifests/fold")
                .then().statusCode(200)
                .body("manifest.entries[1].hash", equalTo("sha256:changed"))
                .body("record.base", equalTo(rec.getString("record.base")));
        Api.json().body("{\"records\":[" + record + "]}").post("/v1/manifests/fold").then().statusCode(422)
                .body("field", equalTo("records.0"));
    }
}
