package dev.engram.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The production build serves the OpenAPI document as two checked-in files (ADR 0007); they must be what SmallRye
 * OpenAPI makes from this code, byte for byte, or production would describe another API. When a change to the API
 * changes the document this test fails, and the same command with {@code -DwriteOpenApi=true} writes the
 * new files, so that the change to the API shows in the diff under review.
 */
@QuarkusTest
class OpenApiSnapshotTest {

    static final Path SHIPPED = Path.of("src/production/resources/META-INF/engram");

    @ParameterizedTest
    @ValueSource(strings = {"json", "yaml"})
    void theProductionBuildShipsTheDocumentThisCodeMakes(String format) throws IOException {
        String made = given().get("/q/openapi?format=" + format).then().statusCode(200).extract().asString();
        assertTrue(made.contains("/v1/stores/{store}/scopes/{scope}/entries/{name}"), made.substring(0, 200));
        Path file = SHIPPED.resolve("openapi." + format);
        if (Boolean.getBoolean("writeOpenApi")) {
            Files.createDirectories(SHIPPED);
            Files.writeString(file, made, StandardCharsets.UTF_8);
        }
        String shipped = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        assertTrue(made.equals(shipped), file + " is not the OpenAPI document this code makes (" + firstDifference(
                made, shipped) + "): the API changed. Write it again with ./mvnw test -Dtest=OpenApiSnapshotTest "
                + "-DwriteOpenApi=true and commit it.");
    }

    /** Where two documents part: the first line that differs, with its number. */
    static String firstDifference(String made, String shipped) {
        String[] a = made.split("\n", -1);
        String[] b = shipped.split("\n", -1);
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (!a[i].equals(b[i])) {
                return "line " + (i + 1) + " is \"" + b[i].strip() + "\", the code makes \"" + a[i].strip() + "\"";
            }
        }
        return a.length > b.length ? "the file ends at line " + b.length : "the file has lines after " + a.length;
    }
}
