package dev.engram.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.TestAuth;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guides tell the truth (docs/api.md, docs/render.md, docs/tools.md, docs/recall.md, docs/context.md, the latter with
 * its agent loop in one call per step): each curl example runs, in order, against this build's server, and prints what
 * the page shows (times and the port aside; JSON compared as JSON, so the page may indent it). The guides send
 * {@code Authorization: Bearer $TOKEN}, which they set from {@code .engram/admin-key}; here TOKEN is the test
 * profile's operator key.
 */
@QuarkusTest
@io.quarkus.test.junit.TestProfile(dev.engram.WithEmbeddings.class)
class ApiGuideTest {

    private static final Pattern BLOCK = Pattern.compile("```([a-z]*)\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    record Example(String command, String expected) {
    }

    static List<Example> examples(Path doc) throws Exception {
        List<Example> examples = new ArrayList<>();
        Matcher m = BLOCK.matcher(Files.readString(doc));
        String command = null;
        while (m.find()) {
            if (m.group(1).equals("sh") && m.group(2).contains("curl ")) {
                command = m.group(2);
            } else if (command != null) {
                examples.add(new Example(command, m.group(2)));
                command = null;
            }
        }
        return examples;
    }

    @ParameterizedTest
    @CsvSource({"docs/api.md, 15", "docs/render.md, 7", "docs/tools.md, 6", "docs/recall.md, 7",
        "docs/context.md, 14"})
    void everyCurlExamplePrintsWhatTheGuideShows(String doc, int atLeast) throws Exception {
        List<Example> examples = examples(Path.of(doc));
        assertTrue(examples.size() >= atLeast, doc + " has its examples: " + examples.size());
        for (Example e : examples) {
            String actual = run(e.command().replace("localhost:8080", "localhost:" + base.getPort()))
                    .replace("localhost:" + base.getPort(), "localhost:8080");
            compare(e.command(), normalise(e.expected()), normalise(actual));
        }
    }

    private static String run(String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).redirectErrorStream(false);
        pb.environment().put("TOKEN", TestAuth.OPERATOR_KEY);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    /**
     * Times as {@code <time>}, and without SSE comment lines ({@code :keep-alive}): a stream may carry one whenever
     * the keep-alive tick falls inside the example's two seconds, and clients ignore them.
     */
    private static String normalise(String s) {
        String withoutComments = s.lines().filter(line -> !line.startsWith(":")).collect(Collectors.joining("\n"));
        return TIME.matcher(withoutComments).replaceAll("<time>").strip();
    }

    private static void compare(String command, String expected, String actual) throws Exception {
        if (expected.startsWith("HTTP/")) {
            String[] e = expected.split("\n\n", 2);
            String[] a = actual.split("\n\n", 2);
            assertEquals(headers(e[0]), headers(a[0]), command);
            compareBody(command, e.length > 1 ? e[1] : "", a.length > 1 ? a[1] : "");
        } else {
            compareBody(command, expected, actual);
        }
    }

    /** Status line and headers, names in lower case, without content-length (it moves with the times). */
    private static List<String> headers(String block) {
        List<String> lines = new ArrayList<>();
        for (String line : block.split("\n")) {
            int colon = line.indexOf(':');
            String normal = line.startsWith("HTTP/") || colon < 0 ? line
                    : line.substring(0, colon).toLowerCase(Locale.ROOT) + line.substring(colon);
            if (!normal.startsWith("content-length:")) {
                lines.add(normal);
            }
        }
        lines.sort(null);
        return lines;
    }

    private static void compareBody(String command, String expected, String actual) throws Exception {
        JsonNode e = json(expected);
        JsonNode a = json(actual);
        if (e != null && a != null) {
            assertEquals(e, a, command);
            return;
        }
        String[] el = expected.split("\n");
        String[] al = actual.split("\n");
        assertEquals(el.length, al.length, command + "\n" + actual);
        for (int i = 0; i < el.length; i++) {
            String ex = el[i].startsWith("data:") ? el[i].substring(5) : el[i];
            String ac = al[i].startsWith("data:") ? al[i].substring(5) : al[i];
            JsonNode ej = json(ex);
            if (ej != null) {
                assertEquals(ej, json(ac), command);
            } else {
                assertEquals(el[i], al[i], command);
            }
        }
    }

    private static JsonNode json(String s) {
        try {
            return s.isBlank() ? null : JSON.readTree(s);
        } catch (Exception notJson) {
            return null;
        }
    }
}
