package dev.engram.rest;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Small helpers for the REST tests: a fresh store per test, and the common requests. */
public final class Api {

    private Api() {
    }

    public static String newStore() {
        return "t-" + UUID.randomUUID().toString().substring(0, 18);
    }

    public static String entry(String store, String scope, String name) {
        return "/v1/stores/" + store + "/scopes/" + scope + "/entries/" + name;
    }

    public static RequestSpecification json() {
        return given().contentType("application/json");
    }

    public static Response put(String store, String scope, String name, String body) {
        return json().body(body).put(entry(store, scope, name));
    }

    public static String quoted(String s) {
        return "\"" + s + "\"";
    }
}
