package dev.engram.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.NodeClients;
import dev.engram.TestAuth;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document production ships (src/production/resources/META-INF/engram/openapi.yaml, which
 * {@link OpenApiSnapshotTest} keeps equal to what the code makes) is one a generator can use: Redocly's lint with the
 * recommended rules (src/test/node/openapi/redocly.yaml) finds no error, and a TypeScript client generated from it
 * (openapi-typescript, openapi-fetch) compiles with tsc in strict mode together with roundtrip.ts, which then makes a
 * round trip through this running Engram with it. The Node packages are installed by the build (pom.xml's
 * openapi-node-packages, {@code npm ci} in src/test/node/openapi).
 */
@QuarkusTest
class OpenApiClientTest {

    static final Path NODE = Path.of("src/test/node/openapi");
    static final Path DOCUMENT = OpenApiSnapshotTest.SHIPPED.resolve("openapi.yaml").toAbsolutePath();

    /** Skipped where Node.js is missing, failed there under ENGRAM_REQUIRE_NODE=1 (CI). */
    @BeforeEach
    void nodeClients() {
        NodeClients.assumeInstalled(NODE);
    }

    @TestHTTPResource("/")
    URL url;

    @Test
    void redoclyFindsNoErrorInTheDocument() throws Exception {
        Run lint = run(List.of(bin("redocly"), "lint", "--config", "redocly.yaml", "--format=json",
                DOCUMENT.toString()), Map.of());
        String out = lint.out();
        JsonNode report = new ObjectMapper().readTree(out.substring(out.indexOf('{')));
        JsonNode totals = report.path("totals");
        System.out.println("Redocly lint of " + DOCUMENT + ": " + totals);
        assertEquals(0, totals.path("errors").asInt(-1), "Redocly's errors: " + out);
        assertEquals(0, lint.exit(), out + lint.err());
    }

    @Test
    void aGeneratedTypeScriptClientCompilesAndMakesARoundTrip() throws Exception {
        Run generate = run(List.of(bin("openapi-typescript"), DOCUMENT.toString(), "-o", "generated/engram.ts"),
                Map.of());
        assertEquals(0, generate.exit(), generate.out() + generate.err());
        Run compile = run(List.of(bin("tsc"), "-p", "tsconfig.json"), Map.of());
        assertEquals(0, compile.exit(), "tsc: " + compile.out() + compile.err());

        String store = "ts-" + UUID.randomUUID().toString().substring(0, 12);
        Run trip = run(List.of("node", "build/roundtrip.js"), Map.of("ENGRAM_URL", url.toString().replaceAll("/$", ""),
                "ENGRAM_STORE", store, "ENGRAM_KEY", TestAuth.OPERATOR_KEY));
        assertEquals(0, trip.exit(), "roundtrip.js: " + trip.out() + trip.err());
        JsonNode seen = new ObjectMapper().readTree(trip.out().strip());
        assertEquals(store, seen.path("store").asText());
        assertEquals("Spaces, not tabs.", seen.path("content").asText());
        assertEquals(1, seen.path("listed").asInt());
        assertEquals("patch-anchor-missing", seen.path("patch_refused").asText());
        // and the server has what the client wrote, read without it
        given().get("/v1/stores/" + store + "/scopes/user/entries/coding-style").then().statusCode(200)
                .body("content", org.hamcrest.Matchers.equalTo("Spaces, not tabs."));
    }

    private static String bin(String tool) {
        return NODE.resolve("node_modules/.bin/" + tool).toAbsolutePath().toString();
    }

    record Run(int exit, String out, String err) {
    }

    /** Runs a command in src/test/node/openapi; a bound on its time, so that a hung tool cannot hang the build. */
    private static Run run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        assertTrue(Files.isDirectory(NODE.resolve("node_modules")), "No " + NODE + "/node_modules: the build's npm "
                + "ci (pom.xml, openapi-node-packages) did not run; run ./mvnw process-test-resources");
        Path out = Files.createTempFile("openapi-", ".out");
        Path err = Files.createTempFile("openapi-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(NODE.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(command + " did not end in 5 minutes");
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
