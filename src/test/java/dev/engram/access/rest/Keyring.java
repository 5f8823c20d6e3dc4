package dev.engram.access.rest;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;

/** Issues and revokes keys through the keys API, as the operator (the tests' default key). */
final class Keyring {

    private Keyring() {
    }

    /** Issues a key with {@code grantsJson} (a JSON array) and returns its secret. */
    static String issue(String name, String grantsJson) {
        return issued(name, grantsJson).path("key");
    }

    static Response issued(String name, String grantsJson) {
        Response r = given().contentType("application/json")
                .body("{\"name\": \"" + name + "\", \"grants\": " + grantsJson + "}").post("/v1/keys");
        if (r.statusCode() != 201) {
            throw new AssertionError("issuing " + name + ": " + r.statusCode() + " " + r.asString());
        }
        return r;
    }

    /** Issues a key and revokes it at once; returns its secret. */
    static String revoked(String name, String grantsJson) {
        Response r = issued(name, grantsJson);
        given().delete("/v1/keys/" + r.path("id")).then().statusCode(204);
        return r.path("key");
    }
}
