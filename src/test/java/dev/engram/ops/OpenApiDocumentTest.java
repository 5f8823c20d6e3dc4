package dev.engram.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document says what the wire does (issue 22, item 15): members in snake_case as JsonSetup writes and
 * reads them, the bearer scheme, operation ids, the 201s, the refusals as problems, the tools' arguments as their
 * input schemas, and erase's body as JSON. Read from the document this build serves at {@code /q/openapi}.
 */
@QuarkusTest
class OpenApiDocumentTest {

    static final String ENTRY = "/v1/stores/{store}/scopes/{scope}/entries/{name}";

    JsonNode doc;

    @BeforeEach
    void read() throws Exception {
        doc = new ObjectMapper().readTree(given().get("/q/openapi?format=json").then().statusCode(200).extract()
                .asString());
    }

    @Test
    void membersAreNamedAsOnTheWire() {
        List<String> camel = new ArrayList<>();
        doc.path("components").path("schemas").properties().forEach(s -> s.getValue().path("properties")
                .fieldNames().forEachRemaining(p -> {
                    if (!p.equals(p.toLowerCase())) {
                        camel.add(s.getKey() + "." + p);
                    }
                }));
        assertEquals(List.of(), camel);
        JsonNode patch = doc.at("/components/schemas/PatchEntry/properties");
        assertTrue(patch.has("old_text") && patch.has("new_text"), patch.toString());
        assertFalse(doc.at("/components/schemas/PatchEntry/additionalProperties").asBoolean(true),
                "a request body refuses unknown members");
    }

    @Test
    void everyOperationNeedsTheBearerSchemeAndHasAnId() {
        assertEquals("http", doc.at("/components/securitySchemes/bearer/type").asText());
        assertEquals("bearer", doc.at("/components/securitySchemes/bearer/scheme").asText());
        assertTrue(doc.path("security").toString().contains("\"bearer\""), doc.path("security").toString());
        Set<String> ids = new HashSet<>();
        operations((route, op) -> {
            String id = op.path("operationId").asText("");
            assertFalse(id.isEmpty(), route + " has no operationId");
            assertTrue(ids.add(id), route + ": operationId " + id + " twice");
        });
    }

    @Test
    void everyRefusalIsAProblemWithTheStatusesTheRouteAnswers() {
        JsonNode problem = doc.at("/components/schemas/Problem/properties");
        for (String member : List.of("type", "title", "status", "detail", "instance", "rule", "field")) {
            assertTrue(problem.has(member), member + " in " + problem);
        }
        operations((route, op) -> {
            JsonNode responses = op.path("responses");
            for (String status : List.of("401", "403", "429", "500", "503")) {
                assertTrue(responses.has(status), route + " lacks " + status);
            }
            responses.properties().forEach(r -> {
                if (r.getKey().startsWith("4") || r.getKey().startsWith("5")) {
                    String ref = r.getValue().path("$ref").asText();
                    JsonNode shared = doc.at(ref.substring(1));
                    assertEquals("#/components/schemas/Problem",
                            shared.at("/content/application~1problem+json/schema/$ref").asText(), route + " " + ref);
                }
            });
            if (op.has("requestBody")) {
                for (String status : List.of("400", "413", "415", "422")) {
                    assertTrue(responses.has(status), route + " takes a body and lacks " + status);
                }
            }
        });
        assertTrue(doc.at("/paths/" + pointer(ENTRY) + "/patch/responses").has("412"));
        assertTrue(doc.at("/paths/" + pointer(ENTRY) + "/put/responses").has("412"));
        assertTrue(doc.at("/paths/~1v1~1stores~1{store}~1banks~1{bank}~1reflect/post/responses").has("409"));
    }

    @Test
    void createsAnswer201() {
        assertTrue(doc.at("/paths/" + pointer(ENTRY) + "/put/responses").has("201"));
        assertTrue(doc.at("/paths/~1v1~1stores~1{store}/put/responses").has("201"));
        JsonNode save = doc.at("/paths/~1v1~1stores~1{store}~1memories/post/responses");
        assertTrue(save.has("201") && !save.has("200"), save.toString());
        JsonNode issue = doc.at("/paths/~1v1~1keys/post/responses");
        assertEquals("#/components/schemas/IssuedJson",
                issue.at("/201/content/application~1json/schema/$ref").asText(), issue.toString());
        assertTrue(doc.at("/paths/~1v1~1keys~1{id}/delete/responses").has("204"));
    }

    @Test
    void toolArgumentsAreTheToolsInputSchemas() {
        assertTrue(doc.at("/components/schemas/CallBody/properties/arguments/$ref").asText()
                .endsWith("/ToolArguments"));
        JsonNode patch = doc.at("/components/schemas/MemoryPatchArguments");
        assertEquals("[\"name\",\"old_text\",\"new_text\"]", patch.path("required").toString());
        assertFalse(doc.toString().contains("nodeType"), "Jackson's JsonNode described as a bean");
    }

    @Test
    void eraseTakesJsonAsItsDocumentSays() {
        JsonNode body = doc.at("/paths/" + pointer(ENTRY + "/erase") + "/post/requestBody");
        assertEquals(List.of("application/json"), names(body.path("content")));
        assertFalse(body.path("required").asBoolean(true));
        given().contentType("text/plain").body("{}").post("/v1/stores/s/scopes/user/entries/x/erase").then()
                .statusCode(415);
    }

    private void operations(BiConsumer<String, JsonNode> check) {
        doc.path("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> {
            if (Set.of("get", "put", "post", "patch", "delete").contains(m.getKey())) {
                check.accept(m.getKey().toUpperCase() + " " + p.getKey(), m.getValue());
            }
        }));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String pointer(String path) {
        return path.replace("~", "~0").replace("/", "~1");
    }
}
