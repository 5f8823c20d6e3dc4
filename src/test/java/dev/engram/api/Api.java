package dev.engram.api;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Small helpers for the REST tests: a fresh store per test, and the common requests. */
final class Api {

    private Api() {
    }

    static String newStore() {
        return "t-" + UUID.randomUUID().toString().substring(0, 18);
    }

    static String entry(String store, String scope, String name) {
        return "/v1/stores/" + store + "/scopes/" + scope + "/entries/" + name;
    }

    static RequestSpecification json() {
        return given().contentType("application/json");
    }

    static Response put(String store, String scope, String name, String body) {
        return json().body(body).put(entry(store, scope, name));
    }

    static String quoted(String s) {
        return "\"" + s + "\"";
    }
}
