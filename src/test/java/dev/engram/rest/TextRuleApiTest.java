package dev.engram.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every string of every REST body goes through the one text rule, and no array member may be {@code null}: from one
 * valid body per body-taking route, every string (member value, member name, string inside free JSON such as a tool
 * step's input) is replaced in turn by one holding NUL and one holding an unpaired surrogate, and every array member
 * in turn by {@code null}. Each is a 422 problem naming the member (in a tool call's arguments, a tool error for the
 * model), and the database is unchanged.
 */
@QuarkusTest
class TextRuleApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A route and a body it takes; {s} is the store. */
    record Route(String method, String path, String body) {
    }

    static final List<Route> ROUTES = List.of(
            new Route("PUT", "/v1/stores/{s}", "{\"max_entry_bytes\": 2048}"),
            new Route("PUT", "/v1/stores/{s}/scopes/user/entries/e1", "{\"content\": \"c\", \"meta\": {\"k\": \"v\"}}"),
            new Route("PATCH", "/v1/stores/{s}/scopes/user/entries/e1", "{\"old_text\": \"a\", \"new_text\": \"b\"}"),
            new Route("POST", "/v1/stores/{s}/scopes/user/entries/e1/erase", "{\"reason\": \"asked\"}"),
            new Route("POST", "/v1/stores/{s}/memories", "{\"id\": \"m1\", \"bank\": {\"type\": \"user\", \"id\": "
                    + "\"alice\"}, \"type\": \"fact\", \"content\": \"c\", \"tags\": [\"t\"], \"keywords\": [\"k\"], "
                    + "\"evidence\": [\"e\"], \"source\": \"user_input\", \"archive_reason\": \"r\", "
                    + "\"superseded_by\": \"x\", \"revisions\": [{\"by\": \"b\", \"summary\": \"s\"}]}"),
            new Route("PUT", "/v1/stores/{s}/memories/m1", "{\"content\": \"c\", \"tags\": [\"t\"]}"),
            new Route("POST", "/v1/stores/{s}/memories/search", "{\"query\": \"q\", \"type\": \"fact\", "
                    + "\"banks\": [\"user:alice\"], \"ranking\": \"hybrid\"}"),
            new Route("POST", "/v1/stores/{s}/memories/m1/archive", "{\"reason\": \"old\"}"),
            new Route("POST", "/v1/stores/{s}/memories/m1/revisions", "{\"by\": \"leo\", \"summary\": \"ok\"}"),
            new Route("PUT", "/v1/stores/{s}/banks/user:alice/config", "{\"mission\": \"m\", \"directives\": "
                    + "[\"d\"]}"),
            new Route("PUT", "/v1/stores/{s}/banks/user:alice/slots/SOUL", "{\"text\": \"be brief\"}"),
            new Route("POST", "/v1/stores/{s}/banks/user:alice/slots/SOUL/append", "{\"text\": \"and kind\"}"),
            new Route("POST", "/v1/stores/{s}/banks/user:alice/reflect", "{\"reflector\": \"deterministic\"}"),
            new Route("PUT", "/v1/stores/{s}/mental-models/mm1", "{\"name\": \"n\", \"description\": \"d\", "
                    + "\"content\": \"c\", \"tags\": [\"t\"]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1", "{\"strategy\": {\"name\": \"sliding_window\"}, "
                    + "\"token_counter\": \"simple\", \"pruning\": {\"protected_tools\": [\"grep\"], "
                    + "\"placeholder_text\": \"p\"}, \"memory\": {\"scopes\": [\"user\"], \"scope_max_bytes\": "
                    + "{\"user\": 100}}}"),
            new Route("POST", "/v1/stores/{s}/contexts/c1/steps", "{\"steps\": [{\"thought\": \"t\", "
                    + "\"reasoning_content\": \"r\", \"reasoning_items\": [{\"id\": \"r1\", \"summary\": \"s\"}], "
                    + "\"action\": {\"id\": \"a1\", \"name\": \"grep\", \"input\": {\"query\": \"q\", \"all\": "
                    + "[\"x\"]}}, \"observation\": \"o\", \"user_nudge\": \"n\", \"cache_hash\": \"h\"}]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1/system-prompt", "{\"text\": \"be brief\"}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1/task", "{\"text\": \"t\", \"blocks\": [{\"type\": \"text\", "
                    + "\"text\": \"b\"}, {\"type\": \"image\", \"image_b64\": \"iVBORw0KGgo=\", \"media_type\": "
                    + "\"image/png\"}]}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1/plan", "{\"text\": \"p\"}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1/interjection", "{\"text\": \"stop\"}"),
            new Route("PUT", "/v1/stores/{s}/contexts/c1/prior-conversation", "{\"messages\": [{\"role\": "
                    + "\"assistant\", \"content\": \"c\", \"reasoning_content\": \"r\", \"tool_calls\": [{\"id\": "
                    + "\"a1\", \"name\": \"grep\", \"input\": {\"q\": \"x\"}}]}, {\"role\": \"tool\", "
                    + "\"tool_call_id\": \"a1\", \"content\": \"out\"}]}"),
            new Route("POST", "/v1/stores/{s}/contexts/c1/tool-results", "{\"tool_name\": \"grep\", \"content\": "
                    + "\"out\", \"file_path\": \"/a\"}"),
            new Route("POST", "/v1/stores/{s}/tools/call", "{\"name\": \"memory_save\", \"scopes\": [\"user\"], "
                    + "\"read_scopes\": [\"rules\"], \"arguments\": {\"name\": \"n\", \"content\": \"c\", \"list\": "
                    + "[\"x\"]}}"),
            new Route("POST", "/v1/manifests/fold", "{\"records\": [{\"kind\": \"k\"}]}"),
            new Route("POST", "/v1/compact", "{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", "
                    + "\"content\": \"hello\"}]}"),
            new Route("POST", "/v1/keys", "{\"name\": \"k\", \"grants\": [{\"stores\": \"{s}\", \"role\": "
                    + "\"read\", \"scopes\": [\"user\"], \"read_scopes\": [\"user\"]}]}"));

    @Inject
    AgroalDataSource db;

    String store;

    @BeforeEach
    void store() {
        store = Api.newStore();
    }

    /** One variant of a body: what was changed, where, and the body. */
    record Variant(String what, String member, String body) {
    }

    /** Every string of {@code body} replaced in turn (member names too) by {@code bad}. */
    static List<Variant> strings(JsonNode body, String what, UnaryOperator<String> bad) {
        List<Variant> out = new ArrayList<>();
        walk(body, "", (path, node, parent, key) -> {
            if (node.isTextual()) {
                out.add(new Variant(what, path, replaced(body, parent, key, new TextNode(bad.apply(node.asText())))));
            }
            if (node.isObject()) {
                for (Iterator<String> names = node.fieldNames(); names.hasNext();) {
                    String name = names.next();
                    ObjectNode copy = body.deepCopy();
                    ObjectNode at = (ObjectNode) (path.isEmpty() ? copy : copy.at(pointer(path)));
                    Map<String, JsonNode> fields = new LinkedHashMap<>();
                    at.fields().forEachRemaining(e -> fields.put(e.getKey().equals(name) ? bad.apply(name)
                            : e.getKey(), e.getValue()));
                    at.removeAll();
                    fields.forEach(at::set);
                    out.add(new Variant(what + " in a member name", (path.isEmpty() ? "" : path + ".")
                            + TextRule.shown(bad.apply(name)), copy.toString()));
                }
            }
        });
        return out;
    }

    /** Members holding free JSON, where null is a JSON value like any other. */
    static final java.util.regex.Pattern FREE = java.util.regex.Pattern.compile(
            "(^|.*\\.)(input|arguments)\\..*|records\\.\\d+\\..*");

    /** Every array member of {@code body} (but inside free JSON) replaced in turn by null. */
    static List<Variant> nulls(JsonNode body) {
        List<Variant> out = new ArrayList<>();
        walk(body, "", (path, node, parent, key) -> {
            if (parent instanceof ArrayNode && !FREE.matcher(path).matches()) {
                out.add(new Variant("null", path, replaced(body, parent, key, NullNode.instance)));
            }
        });
        return out;
    }

    interface Visit {
        void at(String path, JsonNode node, JsonNode parent, String key);
    }

    static void walk(JsonNode node, String path, Visit visit) {
        visit.at(path, node, null, null);
        walkChildren(node, path, visit);
    }

    private static void walkChildren(JsonNode node, String path, Visit visit) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                String p = (path.isEmpty() ? "" : path + ".") + e.getKey();
                visit.at(p, e.getValue(), node, e.getKey());
                walkChildren(e.getValue(), p, visit);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = (path.isEmpty() ? "" : path + ".") + i;
                visit.at(p, node.get(i), node, String.valueOf(i));
                walkChildren(node.get(i), p, visit);
            }
        }
    }

    private static String pointer(String path) {
        return "/" + path.replace('.', '/');
    }

    private static String replaced(JsonNode body, JsonNode parent, String key, JsonNode with) {
        if (parent == null) {
            return with.toString();
        }
        JsonNode copy = body.deepCopy();
        String path = pathOf(body, parent);
        JsonNode at = path.isEmpty() ? copy : copy.at(path);
        if (at instanceof ArrayNode a) {
            a.set(Integer.parseInt(key), with);
        } else {
            ((ObjectNode) at).set(key, with);
        }
        return copy.toString();
    }

    /** The JSON pointer of {@code target} (by identity) in {@code root}, or "" for the root. */
    private static String pathOf(JsonNode root, JsonNode target) {
        List<String> found = new ArrayList<>();
        walk(root, "", (path, node, parent, key) -> {
            if (node == target && found.isEmpty()) {
                found.add(path.isEmpty() ? "" : pointer(path));
            }
        });
        return found.get(0);
    }

    /** The rows of every table of the database, so that a refusal can be seen to have written nothing. */
    Map<String, Long> rows() throws Exception {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = db.getConnection()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = c.createStatement().executeQuery("select table_name from information_schema.tables "
                    + "where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1")) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
            for (String t : tables) {
                try (ResultSet r = c.createStatement().executeQuery("select count(*) from \"" + t + "\"")) {
                    r.next();
                    counts.put(t, r.getLong(1));
                }
            }
        }
        return counts;
    }

    @Test
    void everyStringOfEveryBodyHoldingNulOrALoneSurrogateIsRefusedNamingItsMember() throws Exception {
        List<String> wrong = new ArrayList<>();
        int sent = 0;
        Map<String, Long> before = rows();
        for (Route route : ROUTES) {
            JsonNode body = JSON.readTree(route.body().replace("{s}", store));
            List<Variant> variants = new ArrayList<>(strings(body, "NUL", s -> s + "\u0000x"));
            variants.addAll(strings(body, "a lone surrogate", s -> s + "\ud800"));
            for (Variant v : variants) {
                Response r = send(route, v.body());
                String where = route.method() + " " + route.path() + " with " + v.what() + " at " + v.member()
                        + ": " + r.statusCode() + " " + r.asString();
                boolean right;
                if (v.what().equals("a lone surrogate in a member name") && r.statusCode() == 400) {
                    // Jackson reads a member name from bytes as UTF-8 and cannot hold one: not JSON to it
                    right = "body-syntax".equals(r.path("rule"));
                } else if (v.member().startsWith("arguments.")) {
                    right = r.statusCode() == 200 && Boolean.TRUE.equals(r.path("is_error"));
                } else {
                    right = r.statusCode() == 422 && r.contentType().startsWith("application/problem+json")
                            && ((v.member().equals("content") ? "content" : "text")
                                    + (v.what().startsWith("NUL") ? "-nul" : "-encoding")).equals(r.path("rule"))
                            && v.member().equals(r.path("field"));
                }
                Map<String, Long> after = rows();
                if (!right || !before.equals(after)) {
                    wrong.add(where + (before.equals(after) ? "" : " rows " + before + " -> " + after));
                }
                before = after;
                sent++;
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(sent > 100, sent + " requests");
    }

    @Test
    void nullInsideAnyArrayOfAnyBodyIsRefusedNamingItsMember() throws Exception {
        int sent = 0;
        for (Route route : ROUTES) {
            for (Variant v : nulls(JSON.readTree(route.body().replace("{s}", store)))) {
                Map<String, Long> before = rows();
                Response r = send(route, v.body());
                String where = route.method() + " " + route.path() + " with null at " + v.member() + ": "
                        + r.asString();
                assertEquals(422, r.statusCode(), where);
                assertTrue(r.contentType().startsWith("application/problem+json"), where);
                assertEquals(v.member(), r.path("field"), where);
                assertEquals(before, rows(), where);
                sent++;
            }
        }
        assertTrue(sent > 15, sent + " requests");
    }

    @Test
    void aSystemPromptKeepsItsCacheBreaksAndAStrayNulIsStillRefused() {
        String path = "/v1/stores/" + store + "/contexts/c1/system-prompt";
        Api.json().body("{}").put("/v1/stores/" + store + "/contexts/c1").then()
                .statusCode(org.hamcrest.Matchers.lessThan(300));
        Api.json().body("{\"text\": \"rules\\u0000CACHE_BREAK\\u0000today\"}").put(path).then().statusCode(200);
        Api.json().body("{\"text\": \"rules\\u0000today\"}").put(path).then().statusCode(422);
        Api.json().body("{\"text\": \"rules\\ud800\"}").put(path).then().statusCode(422);
    }

    @Test
    void aMalformedContentTypeIsAProblemOnEveryMethod() {
        for (String method : List.of("GET", "POST", "PUT", "PATCH", "DELETE")) {
            for (String type : List.of("a", "/", "a/b; c", "application/json; charset")) {
                var request = RestAssured.given().config(RestAssured.config().encoderConfig(EncoderConfig
                        .encoderConfig().appendDefaultContentCharsetToContentTypeIfUndefined(false)))
                        .header("Content-Type", type);
                if (!method.equals("GET")) {
                    request = request.body("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                Response r = request.request(method, "/v1/stores/" + store + "/journal");
                String where = method + " with Content-Type " + type + ": " + r.asString();
                assertTrue(r.statusCode() >= 400 && r.statusCode() < 500, where);
                assertTrue(r.contentType().startsWith("application/problem+json"), where);
            }
        }
    }

    /** {@code json} with every surrogate written as an escape, so that a lone one reaches the server as sent. */
    static String escaped(String json) {
        StringBuilder b = new StringBuilder();
        for (char c : json.toCharArray()) {
            b.append(Character.isSurrogate(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }

    private Response send(Route route, String body) {
        return Api.json().body(escaped(body)).request(route.method(), route.path().replace("{s}", store)).then()
                .extract().response();
    }
}
