package dev.engram.documents.rest;

import static dev.engram.rest.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.rest.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The memory tool's backend answers each command and error with the documented text, byte for byte: one table of
 * calls run in order on a new store, each with the text and is_error it must answer.
 */
@QuarkusTest
class MemoryToolApiTest {

    /** One call: the tool-use input, the text it must answer, whether that is an error. */
    record Row(String input, String text, boolean error) {
    }

    static Row ok(String input, String text) {
        return new Row(input, text, false);
    }

    static Row error(String input, String text) {
        return new Row(input, text, true);
    }

    static String route(String store) {
        return "/v1/stores/" + store + "/memory-tool";
    }

    static JsonPath call(String store, String input) {
        io.restassured.response.Response r = json().body(input).post(route(store));
        assertEquals(200, r.statusCode(), input + " answered " + r.asString());
        return r.jsonPath();
    }

    static final List<Row> TABLE = List.of(
            ok("{\"command\":\"view\",\"path\":\"/memories\"}",
                    "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items "
                    + "and node_modules:\n0\t/memories"),
            ok("{\"command\":\"create\",\"path\":\"/memories/notes.txt\",\"file_text\":\"Line 1\\nOld Text\\nLine 3\"}",
                    "File created successfully at: /memories/notes.txt"),
            error("{\"command\":\"create\",\"path\":\"/memories/notes.txt\",\"file_text\":\"again\"}",
                    "Error: File /memories/notes.txt already exists"),
            ok("{\"command\":\"view\",\"path\":\"/memories/notes.txt\"}",
                    "Here's the content of /memories/notes.txt with line numbers:\n     1\tLine 1\n     2\tOld Text\n"
                    + "     3\tLine 3"),
            ok("{\"command\":\"view\",\"path\":\"/memories/notes.txt\",\"view_range\":[2,-1]}",
                    "Here's the content of /memories/notes.txt with line numbers:\n     2\tOld Text\n     3\tLine 3"),
            error("{\"command\":\"view\",\"path\":\"/memories/notes.txt\",\"view_range\":[3,2]}",
                    "Error: Invalid `view_range`: [3, 2]. It should be [start, end] with 1 <= start <= 3 and start "
                    + "<= end <= 3, or end -1 for the end of the file."),
            ok("{\"command\":\"str_replace\",\"path\":\"/memories/notes.txt\",\"old_str\":\"Old Text\","
                    + "\"new_str\":\"New Text\"}",
                    "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
                    + "     1\tLine 1\n     2\tNew Text\n     3\tLine 3"),
            error("{\"command\":\"str_replace\",\"path\":\"/memories/notes.txt\",\"old_str\":\"Old Text\","
                    + "\"new_str\":\"x\"}",
                    "No replacement was performed, old_str `Old Text` did not appear verbatim in "
                    + "/memories/notes.txt."),
            error("{\"command\":\"str_replace\",\"path\":\"/memories/notes.txt\",\"old_str\":\"Line\","
                    + "\"new_str\":\"x\"}",
                    "No replacement was performed. Multiple occurrences of old_str `Line` in lines: 1, 3. Please "
                    + "ensure it is unique"),
            error("{\"command\":\"str_replace\",\"path\":\"/memories/none.txt\",\"old_str\":\"a\",\"new_str\":\"b\"}",
                    "Error: The path /memories/none.txt does not exist. Please provide a valid path."),
            ok("{\"command\":\"insert\",\"path\":\"/memories/notes.txt\",\"insert_line\":0,"
                    + "\"insert_text\":\"First\"}",
                    "The file /memories/notes.txt has been edited."),
            error("{\"command\":\"insert\",\"path\":\"/memories/notes.txt\",\"insert_line\":10,"
                    + "\"insert_text\":\"x\"}",
                    "Error: Invalid `insert_line` parameter: 10. It should be within the range of lines of the file: "
                    + "[0, 4]"),
            error("{\"command\":\"insert\",\"path\":\"/memories/none.txt\",\"insert_line\":0,\"insert_text\":\"x\"}",
                    "Error: The path /memories/none.txt does not exist"),
            ok("{\"command\":\"view\",\"path\":\"/memories/notes.txt\"}",
                    "Here's the content of /memories/notes.txt with line numbers:\n     1\tFirst\n     2\tLine 1\n"
                    + "     3\tNew Text\n     4\tLine 3"),
            ok("{\"command\":\"create\",\"path\":\"/memories/projects/apollo/plan.md\",\"file_text\":\"Ship friday\"}",
                    "File created successfully at: /memories/projects/apollo/plan.md"),
            error("{\"command\":\"create\",\"path\":\"/memories/projects/apollo/plan.md/x\",\"file_text\":\"\"}",
                    "Error: File /memories/projects/apollo/plan.md/x already exists"),
            error("{\"command\":\"create\",\"path\":\"/memories/projects\",\"file_text\":\"\"}",
                    "Error: File /memories/projects already exists"),
            ok("{\"command\":\"create\",\"path\":\"/memories/projects/.hidden\",\"file_text\":\"secret\"}",
                    "File created successfully at: /memories/projects/.hidden"),
            ok("{\"command\":\"view\",\"path\":\"/memories\"}",
                    "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items "
                    + "and node_modules:\n39\t/memories\n28\t/memories/notes.txt\n11\t/memories/projects\n"
                    + "11\t/memories/projects/apollo"),
            error("{\"command\":\"view\",\"path\":\"/memories/projects\",\"view_range\":[1,2]}",
                    "Error: The `view_range` parameter is not allowed when `path` points to a directory."),
            error("{\"command\":\"rename\",\"old_path\":\"/memories/notes.txt\",\"new_path\":\"/memories/projects\"}",
                    "Error: The destination /memories/projects already exists"),
            ok("{\"command\":\"rename\",\"old_path\":\"/memories/projects\",\"new_path\":\"/memories/archive/2026\"}",
                    "Successfully renamed /memories/projects to /memories/archive/2026"),
            ok("{\"command\":\"view\",\"path\":\"/memories/archive/2026/apollo/plan.md\"}",
                    "Here's the content of /memories/archive/2026/apollo/plan.md with line numbers:\n"
                    + "     1\tShip friday"),
            error("{\"command\":\"rename\",\"old_path\":\"/memories/gone.txt\",\"new_path\":\"/memories/b.txt\"}",
                    "Error: The path /memories/gone.txt does not exist"),
            error("{\"command\":\"delete\",\"path\":\"/memories\"}",
                    "Error: Cannot delete the /memories directory itself"),
            ok("{\"command\":\"delete\",\"path\":\"/memories/archive\"}", "Successfully deleted /memories/archive"),
            error("{\"command\":\"delete\",\"path\":\"/memories/archive\"}",
                    "Error: The path /memories/archive does not exist"),
            error("{\"command\":\"view\",\"path\":\"/memories/archive/2026/apollo/plan.md\"}",
                    "The path /memories/archive/2026/apollo/plan.md does not exist. Please provide a valid path."),
            error("{\"command\":\"view\",\"path\":\"/etc/passwd\"}", "Error: Path must start with /memories, not "
                    + "/etc/passwd"),
            error("{\"command\":\"view\",\"path\":\"/memories/../etc/passwd\"}",
                    "Error: Path /memories/../etc/passwd would escape /memories directory"),
            error("{\"command\":\"view\",\"path\":\"/memories/%2e%2e/etc\"}",
                    "Error: Path /memories/%2e%2e/etc would escape /memories directory"),
            error("{\"command\":\"create\",\"path\":\"/memories\\\\..\\\\x\",\"file_text\":\"\"}",
                    "Error: Path /memories\\..\\x would escape /memories directory"),
            ok("{\"command\":\"delete\",\"path\":\"/memories/notes.txt\"}", "Successfully deleted /memories/notes.txt"),
            error("{\"command\":\"launch\",\"path\":\"/memories\"}", "Error: Unknown command: launch. Use one of "
                    + "view, create, str_replace, insert, delete, rename."));

    @Test
    void everyCommandAndErrorAnswersItsDocumentedText() {
        String s = Api.newStore();
        for (Row row : TABLE) {
            JsonPath answer = call(s, row.input());
            assertEquals(row.text(), answer.getString("content"), row.input());
            assertEquals(row.error(), answer.getBoolean("is_error"), row.input());
        }
    }

    @Test
    void aNulInAPathIsRefusedBeforeTheToolRuns() {
        String s = Api.newStore();
        json().body("{\"command\":\"create\",\"path\":\"/memories/a\\u0000b\",\"file_text\":\"x\"}")
                .post(route(s)).then().statusCode(422).body("rule", org.hamcrest.Matchers.equalTo("text-nul"));
        assertEquals("Here're the files and directories up to 2 levels deep in /memories, excluding hidden items "
                + "and node_modules:\n0\t/memories", call(s, "{\"command\":\"view\",\"path\":\"/memories\"}")
                .getString("content"));
    }

    @Test
    void aWholeToolUseBlockIsAnsweredWithItsToolResultBlock() {
        String s = Api.newStore();
        json().body("{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"memory\",\"input\":"
                + "{\"command\":\"create\",\"path\":\"/memories/a.md\",\"file_text\":\"hi\"}}")
                .post(route(s)).then().statusCode(200)
                .body("type", org.hamcrest.Matchers.equalTo("tool_result"))
                .body("tool_use_id", org.hamcrest.Matchers.equalTo("toolu_01"))
                .body("content", org.hamcrest.Matchers.equalTo("File created successfully at: /memories/a.md"))
                .body("is_error", org.hamcrest.Matchers.equalTo(false));
        json().body("{\"type\":\"tool_use\",\"id\":\"toolu_02\",\"name\":\"bash\",\"input\":{}}")
                .post(route(s)).then().statusCode(422).body("rule", org.hamcrest.Matchers.equalTo("tool-name"));
    }
}
