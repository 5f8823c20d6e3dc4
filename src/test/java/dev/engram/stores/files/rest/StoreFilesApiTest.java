package dev.engram.stores.files.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.rest.Api;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A store as files over real HTTP and PostgreSQL: an export imported into a fresh store gives the same entries and
 * an equivalent journal; the reference example imports and exports as itself, byte for byte; files render as the
 * reference golden; an edited archive reconciles with one record per changed file and reports its conflicts.
 */
@QuarkusTest
class StoreFilesApiTest {

    static final String GZIP = "application/gzip";

    @Inject
    AgroalDataSource db;

    static byte[] export(String store) {
        return given().get("/v1/stores/" + store + "/export").then().statusCode(200).contentType(GZIP).extract()
                .asByteArray();
    }

    static JsonPath importInto(String store, byte[] archive) {
        var r = given().contentType(GZIP).body(archive).post("/v1/stores/" + store + "/import");
        assertEquals(200, r.statusCode(), r.asString());
        return r.jsonPath();
    }

    /** A store with entries (one forgotten, one written twice by two sessions), a document, a memory, a context. */
    static String seeded() {
        String store = Api.newStore();
        Api.json().header("Engram-Session", "slack-7f3a")
                .body("{\"content\": \"Prefers short answers.\\n\", \"meta\": {\"description\": \"How to answer\", "
                        + "\"type\": \"feedback\"}}").put(Api.entry(store, "user", "style")).then().statusCode(201);
        Api.json().body("{\"old_text\": \"short\", \"new_text\": \"short & <kind>\"}")
                .patch(Api.entry(store, "user", "style")).then().statusCode(200);
        Api.put(store, "user", "editor", "{\"content\": \"Uses neovim \\u2014 s\\u00fc\\u00df.\\n\"}").then()
                .statusCode(201);
        Api.put(store, "project", "build", "{\"content\": \"Run make check.\"}").then().statusCode(201);
        Api.json().delete(Api.entry(store, "user", "editor")).then().statusCode(200);
        Api.json().body("{\"command\": \"create\", \"path\": \"/memories/notes/plan.md\", \"file_text\": \"A plan."
                + "\"}").post("/v1/stores/" + store + "/memory-tool").then().statusCode(200);
        Api.json().body("{\"id\": \"m-1\", \"content\": \"Apollo ships on Friday.\", \"tags\": [\"apollo\"]}")
                .post("/v1/stores/" + store + "/memories").then().statusCode(201);
        Api.json().body("{}").put("/v1/stores/" + store + "/contexts/c-1").then().statusCode(201);
        Api.json().body("{\"steps\": [{\"thought\": \"look\", \"action\": {\"id\": \"c1\", \"name\": \"read_file\"}, "
                + "\"observation\": \"the file\"}]}").post("/v1/stores/" + store + "/contexts/c-1/steps").then()
                .statusCode(200);
        return store;
    }

    /** The entry records of journal.jsonl without their seq: what "equivalent" compares. */
    static List<String> entryRecords(byte[] archive) throws Exception {
        return Tars.read(archive).get("journal.jsonl").lines().map(l -> l.replaceFirst("^\\{\"seq\":\\d+,", "{"))
                .toList();
    }

    @Test
    void anExportImportedIntoAFreshStoreGivesTheSameEntriesAndAnEquivalentJournal() throws Exception {
        String from = seeded();
        byte[] archive = export(from);
        Map<String, String> files = Tars.read(archive);
        assertEquals(List.of("journal.jsonl", "project/build.md", "project/INDEX.md", "user/style.md",
                "user/INDEX.md", ".state.json", "_engram/store.json", "_engram/journal.jsonl",
                "_engram/documents/notes/plan.md", "_engram/memories.jsonl", "_engram/contexts.jsonl"),
                List.copyOf(files.keySet()));
        assertEquals("# user\n\n- [style](style.md) \u2014 How to answer\n", files.get("user/INDEX.md"));
        assertTrue(files.get("journal.jsonl").contains("short \\u0026 \\u003ckind\\u003e"), files.get("journal.jsonl"));

        String to = Api.newStore();
        JsonPath report = importInto(to, archive);
        assertEquals(2, report.getInt("created") - 3, report.prettify()); // 2 entries, a document, a memory, a context
        assertEquals(5, report.getInt("replayed"));
        assertEquals(0, report.getInt("reconciled"));
        assertEquals(List.of(), report.getList("conflicts"));

        byte[] again = export(to);
        Map<String, String> copied = Tars.read(again);
        for (String file : List.of("project/build.md", "project/INDEX.md", "user/style.md", "user/INDEX.md",
                "_engram/documents/notes/plan.md")) {
            assertEquals(files.get(file), copied.get(file), file);
        }
        assertEquals(entryRecords(archive), entryRecords(again));
        for (String scope : List.of("user", "project")) {
            assertEquals(given().get("/v1/stores/" + from + "/scopes/" + scope + "/entries").asString(),
                    given().get("/v1/stores/" + to + "/scopes/" + scope + "/entries").asString());
        }
        given().get("/v1/stores/" + to + "/memories/m-1").then().statusCode(200)
                .body("content", equalTo("Apollo ships on Friday."));
        given().get("/v1/stores/" + to + "/contexts/c-1").then().statusCode(200);
        assertEquals(files.get("_engram/memories.jsonl"), copied.get("_engram/memories.jsonl"));
        assertEquals("2", dev.engram.rest.Sql.text(db, "select entries::text from store where id = ?", to),
                "the store's count of entries (V16) counts the imported ones");
    }

    @Test
    void anImportRetriedIntoAnEmptyStoreImportsOnce() {
        byte[] archive = export(seeded());
        String to = Api.newStore();
        importInto(to, archive);
        long seq = given().get("/v1/stores/" + to).then().extract().jsonPath().getLong("seq");
        JsonPath second = importInto(to, archive);
        assertEquals(0, second.getInt("created") + second.getInt("reconciled") + second.getInt("replayed"),
                second.prettify());
        assertEquals(5, second.getInt("unchanged"));
        assertEquals(seq, given().get("/v1/stores/" + to).then().extract().jsonPath().getLong("seq"));
    }

    @Test
    void theReferenceExampleImportsAndExportsAsItselfByteForByte() throws Exception {
        Path memory = Paths.get("src/test/resources/filestore-format/memory");
        String store = Api.newStore();
        JsonPath report = importInto(store, Tars.directory(memory));
        assertEquals(6, report.getInt("replayed"));
        assertEquals(1, report.getInt("created"));
        Map<String, String> files = Tars.read(export(store));
        for (String file : List.of("journal.jsonl", ".state.json", "user/style.md", "user/INDEX.md")) {
            assertEquals(new String(java.nio.file.Files.readAllBytes(memory.resolve(file)), StandardCharsets.UTF_8),
                    files.get(file), file);
        }
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records[4].source", equalTo("reconciled"));
    }

    @Test
    void filesImportedRenderAsTheReferenceGolden() throws Exception {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("user/style.md", "---\nname: style\nupdated: 2026-09-20T10:00:00Z\ndescription: How the user likes "
                + "answers\ntype: feedback\n---\nShort answers.\n\nCode in Go.\n");
        files.put("user/timezone.md", "Europe/London");
        files.put("project/unlisted.md", "not in the scopes");
        String store = Api.newStore();
        JsonPath report = importInto(store, Tars.files(files));
        assertEquals(3, report.getInt("created"));
        String golden;
        try (var in = getClass().getResourceAsStream("/golden/render/one-scope.md")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(golden, given().accept("text/markdown").get("/v1/stores/" + store + "/render?scope=user")
                .then().statusCode(200).extract().asString());
    }

    @Test
    void anEditedArchiveReconcilesOneRecordPerChangedFileAndReportsConflicts() throws Exception {
        String store = seeded();
        Map<String, String> files = new LinkedHashMap<>(Tars.read(export(store)));
        Api.put(store, "project", "build", "{\"content\": \"Run make check, then make lint.\"}").then()
                .statusCode(200);
        long before = given().get("/v1/stores/" + store).then().extract().jsonPath().getLong("seq");
        files.put("user/style.md", files.get("user/style.md").replace("Prefers", "Likes"));
        files.put("user/tone.md", "---\nname: tone\ndescription: Tone\n---\nPlain.\n");
        files.put("_engram/documents/notes/plan.md/inside.md", "under a file");

        JsonPath report = importInto(store, Tars.files(files));
        assertEquals(1, report.getInt("reconciled"), report.prettify());
        assertEquals(1, report.getInt("created"));
        assertEquals(List.of("project/build.md", "_engram/documents/notes/plan.md/inside.md"),
                report.getList("conflicts.path"));
        assertEquals(List.of("store-moved-on", "path-taken"), report.getList("conflicts.reason"));

        JsonPath journal = given().get("/v1/stores/" + store + "/journal?after=" + before).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of("style", "tone"), journal.getList("records.entry.name"));
        assertEquals(List.of("reconciled", "reconciled"), journal.getList("records.source"));
        given().get(Api.entry(store, "user", "style")).then().body("content", equalTo("Likes short & <kind> answers.\n"));
        given().get(Api.entry(store, "project", "build")).then()
                .body("content", equalTo("Run make check, then make lint."));
    }

    /**
     * An archive is not held to the 1 MiB of every other body: an export of a full store is megabytes of gzip. One of
     * 1.5 MB (random text does not compress) imports; a body over engram.files.max-upload-bytes is refused 413 before
     * it is read, and writes nothing.
     */
    @Test
    void anArchiveHasItsOwnBodyLimit() throws Exception {
        var random = new java.util.Random(24);
        java.util.Map<String, String> files = new java.util.TreeMap<>();
        for (int i = 0; i < 20; i++) {
            byte[] bytes = new byte[56_000];
            random.nextBytes(bytes);
            files.put("_engram/documents/memories/noise-" + i + ".md", java.util.Base64.getEncoder()
                    .encodeToString(bytes));
        }
        byte[] archive = Tars.files(files);
        assertTrue(archive.length > 1_100_000, "the archive is over the server's 1 MiB body limit: " + archive.length);
        String store = Api.newStore();
        assertEquals(20, importInto(store, archive).getInt("created"));
        assertEquals(files.keySet().stream().toList(), Tars.names(export(store)).stream()
                .filter(n -> n.startsWith("_engram/documents/memories/noise-")).toList());

        String other = Api.newStore();
        var refused = given().contentType(GZIP).body(new byte[16 * 1024 * 1024 + 1])
                .post("/v1/stores/" + other + "/import");
        assertEquals(413, refused.statusCode(), refused.asString());
        assertEquals("https://engram.dev/problems/body-too-large", refused.jsonPath().getString("type"));
        assertEquals(16 * 1024 * 1024, refused.jsonPath().getLong("limit"));
        given().get("/v1/stores/" + other).then().statusCode(404);
    }
}
