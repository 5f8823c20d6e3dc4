package dev.engram.memories.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A bank over HTTP: entrypoint, slots and their context string, settings, and the store's mental models. */
@QuarkusTest
class BankApiTest {

    @Test
    void theEntrypointIsTheSpecsMarkdown() {
        String s = Api.newStore();
        String memories = "/v1/stores/" + s + "/memories";
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \" Top priority \", "
                + "\"importance\": 0.9}").post(memories).then().statusCode(201);
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Lower priority\", "
                + "\"importance\": 0.125}").post(memories).then().statusCode(201);
        String text = given().get("/v1/stores/" + s + "/banks/user:alice/entrypoint").then().statusCode(200)
                .contentType(containsString("text/markdown")).extract().asString();
        assertEquals("# Memory Entrypoint\n\n- Scope: `user:alice`\n- Generated: <t>\n\n## 1. [fact] 0.90\n\n"
                + "Top priority\n\n## 2. [fact] 0.12\n\nLower priority\n\n",
                text.replaceAll("Generated: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ", "Generated: <t>"));
        given().get("/v1/stores/" + s + "/banks/user:alice/entrypoint?top_n=1&title=Alice").then().statusCode(200)
                .body(matchesPattern("(?s)# Alice\n.*## 1\\. \\[fact\\] 0\\.90\n\nTop priority\n\n"));
        given().get("/v1/stores/" + s + "/banks/team/entrypoint").then().statusCode(200)
                .body(matchesPattern("(?s).*_No memories yet\\._\n"));
        given().get("/v1/stores/" + s + "/banks/Team/entrypoint").then().statusCode(422);
    }

    @Test
    void slotsMakeTheContextString() {
        String s = Api.newStore();
        String bank = "/v1/stores/" + s + "/banks/session:s-1";
        given().get(bank + "/slots/SOUL").then().statusCode(404);
        json().body("{\"text\": \"be helpful\"}").put(bank + "/slots/SOUL").then().statusCode(200);
        json().body("{\"text\": \"be concise\"}").post(bank + "/slots/SOUL/append").then().statusCode(200)
                .body("text", equalTo("be helpful\nbe concise"));
        json().body("{\"text\": \"[ ] check inbox\"}").put(bank + "/slots/HEARTBEAT").then().statusCode(200);
        assertEquals("# SOUL\n\nbe helpful\nbe concise\n\n# HEARTBEAT\n\n[ ] check inbox",
                given().get(bank + "/context").then().statusCode(200).extract().asString());
        assertEquals("# HEARTBEAT\n\n[ ] check inbox",
                given().get(bank + "/context?order=HEARTBEAT").then().statusCode(200).extract().asString());
        given().delete(bank + "/slots/SOUL").then().statusCode(204);
        given().delete(bank + "/slots/SOUL").then().statusCode(204);
        given().get(bank + "/slots/SOUL").then().statusCode(404);
        json().body("{}").put(bank + "/slots/SOUL").then().statusCode(422);
        json().body("{\"text\": \"x\"}").put(bank + "/slots/a%20b").then().statusCode(422);
        given().get("/v1/stores/" + s + "/journal").then().statusCode(200)
                .body("records.kind", org.hamcrest.Matchers.contains("slot.set", "slot.set", "slot.set",
                        "slot.deleted"));
    }

    @Test
    void settingsAndMentalModels() {
        String s = Api.newStore();
        String config = "/v1/stores/" + s + "/banks/team:infra/config";
        given().get(config).then().statusCode(404);
        json().body("{\"mission\": \"keep the fleet up\", \"directives\": [\"page\", \"summarise\"], "
                + "\"skepticism\": 3, \"literalism\": 2, \"empathy\": 1}").put(config).then().statusCode(200);
        json().body("{\"mission\": \"keep the fleet up, quietly\", \"directives\": [\"page\", \"summarise\"], "
                + "\"skepticism\": 3, \"literalism\": 2, \"empathy\": 1}").put(config).then().statusCode(200);
        given().get(config).then().statusCode(200).body("mission", equalTo("keep the fleet up, quietly"))
                .body("directives", hasSize(2)).body("skepticism", equalTo(3));
        json().body("{\"skepticism\": 11}").put(config).then().statusCode(422);

        String models = "/v1/stores/" + s + "/mental-models";
        json().body("{\"name\": \"Alice\", \"content\": \"first\", \"tags\": [\"a\", \"b\"]}").put(models + "/mm-1")
                .then().statusCode(200);
        json().body("{\"name\": \"Alice\", \"content\": \"second\", \"tags\": [\"a\"]}").put(models + "/mm-1")
                .then().statusCode(200).body("content", equalTo("second"));
        given().get(models).then().statusCode(200).body("mental_models", hasSize(1))
                .body("mental_models[0].tags", hasSize(1));
        json().body("{\"name\": \"x\", \"content\": \" \"}").put(models + "/mm-2").then().statusCode(422);
        given().delete(models + "/mm-1").then().statusCode(204);
        given().get(models + "/mm-1").then().statusCode(404);
    }

    @Test
    void withNoModelConfiguredReflectSaysHowToConfigureOneAndTheDeterministicReflectorWorks() {
        String s = Api.newStore();
        String bank = "/v1/stores/" + s + "/banks/user:alice";
        for (String tag : List.of("apollo", "apollo", "home")) {
            json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"About " + tag
                    + " " + System.nanoTime() + "\", \"tags\": [\"" + tag + "\"]}").post("/v1/stores/" + s + "/memories")
                    .then().statusCode(201);
        }
        json().body("{\"reflector\": \"llm\"}").post(bank + "/reflect").then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", containsString("reflector-not-configured"))
                .body("detail", containsString("ENGRAM_REFLECT_LLM_MODEL"))
                .body("detail", containsString("deterministic"));
        json().body("{\"reflector\": \"gpt\"}").post(bank + "/reflect").then().statusCode(422)
                .body("field", equalTo("reflector"));
        json().body("{\"reflector\": 3}").post(bank + "/reflect").then().statusCode(422);
        json().body("{\"reflector\": \"deterministic\", \"extra\": 1}").post(bank + "/reflect").then()
                .statusCode(422);
        given().get("/v1/stores/" + s + "/journal").then().statusCode(200).body("records", hasSize(3));
        json().body("{\"reflector\": \"deterministic\"}").post(bank + "/reflect").then().statusCode(200)
                .body("created", equalTo(1)).body("reviewed", equalTo(3)).body("new_ids", hasSize(1));
        json().body("{\"reflector\": \"deterministic\"}").post("/v1/stores/" + s + "/banks/User:x/reflect").then()
                .statusCode(422);
    }

    @Test
    void withNoModelConfiguredAReflectThatNamesNoReflectorRunsTheDeterministicOneAndSaysSo() {
        String s = Api.newStore();
        String bank = "/v1/stores/" + s + "/banks/user:alice";
        for (String tag : List.of("apollo", "apollo")) {
            json().body("{\"bank\": \"user:alice\", \"content\": \"About " + tag + " " + System.nanoTime()
                    + "\", \"tags\": [\"" + tag + "\"]}").post("/v1/stores/" + s + "/memories").then().statusCode(201);
        }
        json().post(bank + "/reflect").then().statusCode(200).body("reflector", equalTo("deterministic"))
                .body("created", equalTo(1)).body("reviewed", equalTo(2));
        json().body("{}").post(bank + "/reflect").then().statusCode(200).body("reflector", equalTo("deterministic"))
                .body("created", equalTo(0));
    }

    @Test
    void aTopicOfMoreFactsThanOneObservationCanCiteReflectsIntoSeveralAndAgainLater() {
        String s = Api.newStore();
        String bank = "/v1/stores/" + s + "/banks/user:a";
        for (int i = 0; i < 67; i++) {
            if (i == 65) {
                json().body("{\"reflector\": \"deterministic\"}").post(bank + "/reflect").then().statusCode(200)
                        .body("reviewed", equalTo(65)).body("created", equalTo(2));
            }
            json().body("{\"id\": \"f" + i + "\", \"bank\": {\"type\": \"user\", \"id\": \"a\"}, "
                    + "\"content\": \"Fact " + i + "\", \"tags\": [\"t\"]}").post("/v1/stores/" + s + "/memories")
                    .then().statusCode(201);
        }
        json().body("{\"reflector\": \"deterministic\"}").post(bank + "/reflect").then().statusCode(200)
                .body("reviewed", equalTo(2));
        String listed = given().get("/v1/stores/" + s + "/memories?type=observation&limit=100").then()
                .statusCode(200).extract().asString();
        List<java.util.Map<String, Object>> observations = io.restassured.path.json.JsonPath.from(listed)
                .getList("memories");
        List<String> cited = observations.stream().filter(o -> "".equals(o.get("superseded_by")))
                .flatMap(o -> ((List<?>) o.get("evidence")).stream()).map(String::valueOf).sorted().toList();
        assertEquals(java.util.stream.IntStream.range(0, 67).mapToObj(i -> "f" + i).sorted().toList(), cited, listed);
    }
}
