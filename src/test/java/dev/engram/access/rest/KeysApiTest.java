package dev.engram.access.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.engram.access.ApiKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The keys API: a key is shown once, kept as a hash, listed without secrets, revoked at once; bad grants are 422. */
@QuarkusTest
class KeysApiTest {

    @Inject
    AgroalDataSource db;

    @Test
    void aKeyIsShownOnceKeptAsAHashListedWithoutItAndRevokedAtOnce() throws Exception {
        String store = "keys-" + UUID.randomUUID().toString().substring(0, 8);
        Response issued = given().contentType("application/json").body("{\"name\": \"support-bot\", \"grants\": "
                + "[{\"stores\": \"keys-*\", \"role\": \"write\", \"scopes\": [\"user\"], \"read_scopes\": "
                + "[\"rules\"]}]}").post("/v1/keys");
        issued.then().statusCode(201)
                .body("id", matchesPattern("key_[A-Za-z0-9_-]{16}"))
                .body("key", matchesPattern("eng_[A-Za-z0-9_-]{43}"))
                .body("name", equalTo("support-bot"))
                .body("grants[0].stores", equalTo("keys-*"))
                .body("grants[0].role", equalTo("write"))
                .body("grants[0].scopes", equalTo(java.util.List.of("user")))
                .body("grants[0].read_scopes", equalTo(java.util.List.of("rules")))
                .body("created_at", matchesPattern("\\d{4}-.*Z"));
        String id = issued.path("id");
        String key = issued.path("key");
        assertEquals("/v1/keys/" + id, java.net.URI.create(issued.header("Location")).getPath());

        given().header("Authorization", "Bearer " + key).contentType("application/json")
                .body("{\"content\": \"hello\"}").put("/v1/stores/" + store + "/scopes/user/entries/a")
                .then().statusCode(201);

        String listing = given().get("/v1/keys").then().statusCode(200)
                .body("keys.id", hasItem(id)).extract().asString();
        assertFalse(listing.contains(key), "the listing holds no secret");
        assertFalse(listing.contains("sha256:"), "the listing holds no hash");
        given().get("/v1/keys").then().body("keys.find { it.id == '" + id + "' }.key", nullValue())
                .body("keys.find { it.id == '" + id + "' }.grants[0].role", equalTo("write"));

        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(
                "select row_to_json(k)::text, hash from api_key k where id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                assertFalse(r.getString(1).contains(key.substring(4)), "the database holds no secret");
                assertEquals(ApiKeys.hash(key), r.getString(2));
            }
        }

        given().delete("/v1/keys/" + id).then().statusCode(204);
        given().header("Authorization", "Bearer " + key).get("/v1/stores/" + store + "/scopes/user/entries/a")
                .then().statusCode(401).header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        given().delete("/v1/keys/" + id).then().statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/not-found"));
        given().get("/v1/keys").then().body("keys.id", not(hasItem(id)));
    }

    @Test
    void aGrantWithoutScopesListsNoScopeMembers() {
        Response r = Keyring.issued("plain", "[{\"stores\": \"p-1\", \"role\": \"read\"}]");
        assertEquals("{stores=p-1, role=read}", r.path("grants[0]").toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no name          | {\"grants\": [{\"stores\": \"a\", \"role\": \"read\"}]}                   | key-name          | name",
            "blank name       | {\"name\": \" \", \"grants\": [{\"stores\": \"a\", \"role\": \"read\"}]}   | key-name          | name",
            "no grants        | {\"name\": \"n\"}                                                         | grants-count      | grants",
            "empty grants     | {\"name\": \"n\", \"grants\": []}                                         | grants-count      | grants",
            "null grant       | {\"name\": \"n\", \"grants\": [null]}                                     | grant-missing     | grants.0",
            "unknown role     | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"owner\"}]}   | role-unknown      | grants.0.role",
            "no role          | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\"}]}                      | role-unknown      | grants.0.role",
            "empty stores     | {\"name\": \"n\", \"grants\": [{\"stores\": \"\", \"role\": \"read\"}]}    | stores-missing    | grants.0.stores",
            "no stores        | {\"name\": \"n\", \"grants\": [{\"role\": \"read\"}]}                      | stores-missing    | grants.0.stores",
            "bad stores       | {\"name\": \"n\", \"grants\": [{\"stores\": \"Acme*\", \"role\": \"read\"}]} | stores-format     | grants.0.stores",
            "bad scope        | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"write\", \"scopes\": [\"User\"]}]} | scope-format | grants.0.scopes",
            "bad read scope   | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"write\", \"scopes\": [\"u\"], \"read_scopes\": [\"r s\"]}]} | scope-format | grants.0.read_scopes",
            "empty scopes     | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"write\", \"scopes\": []}]} | scopes-empty | grants.0.scopes",
            "admin scopes     | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"admin\", \"scopes\": [\"u\"]}]} | admin-scopes | grants.0.scopes",
            "second grant bad | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"read\"}, {\"stores\": \"b\", \"role\": \"x\"}]} | role-unknown | grants.1.role",
            "unknown member   | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"read\", \"store\": \"b\"}]} | unknown-member | grants.0.store",
            "scopes a string  | {\"name\": \"n\", \"grants\": [{\"stores\": \"a\", \"role\": \"read\", \"scopes\": \"u\"}]} | member-type | grants.0.scopes",
    })
    void badKeysAreRefusedAndNothingIsWritten(String label, String body, String rule, String field) throws Exception {
        long keys = count();
        given().contentType("application/json").body(body).post("/v1/keys").then().statusCode(422)
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/invalid"))
                .body("rule", equalTo(rule)).body("field", equalTo(field));
        assertEquals(keys, count(), "nothing written");
    }

    private long count() throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement("select count(*) from api_key");
                ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }
}
