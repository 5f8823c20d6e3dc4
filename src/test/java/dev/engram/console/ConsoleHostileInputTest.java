package dev.engram.console;

import static dev.engram.rest.Api.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.engram.TestAuth;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Hostile input against the console's pages and forms, generated from a fixed seed: path segments and query values
 * that are not names (traversal, NUL, broken percent-encoding, lone surrogates, 10 KB of text), form fields that are
 * missing, doubled, empty, enormous, not UTF-8 or full of markup, bodies of other types (JSON, multipart, plain text),
 * and forms without the session's token or from another site. Every answer must be a page or a redirect of the
 * console (never a 5xx, never JSON, with the console's Content-Security-Policy, no stack trace or class name), and a
 * refused request must leave the store's entries and journal as they were. The one answer that is no page is the 414
 * of a request line over the server's limit, refused by the HTTP decoder before any route is known. {@code -Dconsole.hostile.requests=N}
 * sends more (default 300), {@code -Dconsole.hostile.seed=N} from another seed.
 */
@QuarkusTest
class ConsoleHostileInputTest {

    static final long SEED = Long.getLong("console.hostile.seed", 20261206L);
    static final int REQUESTS = Integer.getInteger("console.hostile.requests", 300);
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource db;

    /** Values no field or segment should trip on: markup, control characters, traversal, long, empty, odd Unicode. */
    static final String[] TEXTS = {"", " ", "x", "<script>alert(1)</script>", "\"><svg onload=alert(1)>",
        "javascript:alert(1)", "../../etc/passwd", "..%2F..%2Fkeys", "%00", "a\u0000b", "\u202etxt.exe", "é☃😀",
        "a".repeat(10_000), "%", "%zz", "%E2%82", "\r\nSet-Cookie: x=1", "{{chrome.csrf}}", "{#for x in y}{/for}",
        "user", "USER", "a b", "-", "a--b", "9".repeat(300), "v:" + "0".repeat(64), "<![CDATA[x]]>",
        "' OR 1=1 --", "\\\\server\\share", "ﬁ", "\t"};

    record Sent(String method, String path, String type, byte[] body, boolean token, boolean crossSite) {
        @Override
        public String toString() {
            return method + " " + path + " (" + type + ", " + body.length + " bytes" + (token ? "" : ", no token")
                    + (crossSite ? ", cross-site" : "") + ")";
        }
    }

    @Test
    void everyAnswerIsAConsolePageAndARefusalWritesNothing() throws Exception {
        String store = "hostile-c-" + UUID.randomUUID().toString().substring(0, 8);
        put(store, "user", "style", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        MemoriesConsoleTest.save(store, "m1", "team", "fact", "Deploys go out on Tuesdays.", 0.5, "");
        dev.engram.rest.Api.json().body("{}").put("/v1/stores/" + store + "/contexts/run-h").then().statusCode(201);
        dev.engram.rest.Api.json().body("{\"steps\": [{\"thought\": \"look\", \"observation\": \"seen\"}]}")
                .post("/v1/stores/" + store + "/contexts/run-h/steps").then().statusCode(200);
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        Random random = new Random(SEED);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            Sent s = hostile(random, store);
            String before = snapshot(store);
            HttpResponse<String> r = send(s, admin);
            String problem = judge(r);
            if (problem == null && r.statusCode() >= 400 && !before.equals(snapshot(store))) {
                problem = "a refused request wrote";
            }
            if (problem != null) {
                failures.add(s + " -> " + r.statusCode() + ": " + problem + " " + abbreviate(r.body()));
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + REQUESTS + " hostile requests answered wrongly, the first:\n"
                    + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
        }
    }

    @Test
    void aFormWithTheSessionsTokenButHostileFieldsIsRefusedWithItsReason() throws Exception {
        String store = "hostile-c-" + UUID.randomUUID().toString().substring(0, 8);
        put(store, "user", "style", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String before = snapshot(store);
        for (String name : new String[] {"Bad Name", "../x", "a\u0000b", "", "x".repeat(300)}) {
            HttpResponse<String> r = send(new Sent("POST", "/console/stores/" + store + "/scopes/user/entries",
                    "application/x-www-form-urlencoded", form("name", name, "content", "x"), true, false), admin);
            assertTrue(r.statusCode() == 422 || r.statusCode() == 400, name + ": " + r.statusCode());
            assertEquals(null, judge(r), r.body());
        }
        HttpResponse<String> nul = send(new Sent("POST", "/console/stores/" + store + "/scopes/user/entries",
                "application/x-www-form-urlencoded", form("name", "fine", "content", "a\u0000b"), true, false), admin);
        assertEquals(422, nul.statusCode(), nul.body());
        assertEquals(before, snapshot(store), "nothing written");
    }

    private Sent hostile(Random random, String store) {
        String text = TEXTS[random.nextInt(TEXTS.length)];
        String segment = random.nextBoolean() ? encode(text) : text.replace(" ", "%20");
        String base = "/console/stores/" + store;
        String[] gets = {"/console/stores?after=" + encode(text), base + "/scopes/" + segment,
            "/console/stores/" + segment, base + "/scopes/user/entries/" + segment,
            base + "/scopes/user?after=" + encode(text), base + "/scopes/" + segment + "/entries/style",
            base + "/journal?scope=" + encode(text), base + "/journal?scope=user&name=" + encode(text),
            base + "/journal?before=" + encode(text), base + "/journal?after=" + encode(text),
            base + "/journal/lost?before=" + encode(text), base + "/render?scope=" + encode(text),
            base + "/render?max_total_bytes=" + encode(text), base + "/render?scope_max_bytes=" + encode(text),
            base + "/memories?type=" + encode(text) + "&tag=" + encode(text), base + "/memories?after="
                + encode(text), base + "/memories?archived=" + encode(text) + "&stale=" + encode(text),
            base + "/memories/" + segment, base + "/recall?query=" + encode(text) + "&top_k=" + encode(text),
            base + "/recall?query=deploys&ranking=" + encode(text) + "&banks=" + encode(text),
            base + "/banks?after=" + encode(text), base + "/banks/" + segment,
            base + "/banks/team?slots_after=" + encode(text), base + "/contexts?after=" + encode(text),
            base + "/contexts/" + segment, base + "/contexts/run-h?after=" + encode(text),
            base + "/contexts/run-h/prompt?format=" + encode(text), base + "/contexts/run-h/compactions?before="
                + encode(text), base + "/contexts/run-h/tool-results?after=" + encode(text),
            base + "/contexts/run-h/tool-results/" + segment, "/console/keys?after=" + encode(text)};
        String[] posts = {base + "/scopes/user/entries/style", base + "/scopes/user/entries",
            base + "/scopes/user/entries/style/forget", base + "/scopes/user/entries/style/erase",
            base + "/scopes/" + segment + "/entries", "/console/sign-in", base + "/memories/m1/archive",
            base + "/memories/m1/unarchive", base + "/memories/m1/supersede", base + "/memories/" + segment
                + "/archive", base + "/banks/team/reflect", base + "/banks/" + segment + "/reflect",
            base + "/contexts/run-h/compact", base + "/contexts/" + segment + "/compact", "/console/keys",
            "/console/keys/" + segment + "/revoke"};
        if (random.nextInt(3) == 0) {
            return new Sent("GET", gets[random.nextInt(gets.length)], "", new byte[0], true, false);
        }
        String path = posts[random.nextInt(posts.length)];
        String[] fields = {"content", "meta", "version", "name", "reason", "token", "pre", "by", "stores", "role",
            "scopes", "read_scopes"};
        byte[] body;
        String type = "application/x-www-form-urlencoded";
        switch (random.nextInt(6)) {
            case 0 -> body = "{\"content\": \"json\"}".getBytes(StandardCharsets.UTF_8);
            case 1 -> {
                type = "multipart/form-data; boundary=x";
                body = ("--x\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\n" + text + "\r\n--x--\r\n")
                        .getBytes(StandardCharsets.UTF_8);
            }
            case 2 -> body = new byte[] {'c', 'o', 'n', 't', 'e', 'n', 't', '=', (byte) 0xC3, (byte) 0x28,
                (byte) 0xED, (byte) 0xA0, (byte) 0x80};
            case 3 -> body = form(fields[random.nextInt(fields.length)], text, fields[random.nextInt(fields.length)],
                    text, "version", text);
            case 4 -> body = ("content=" + text + "&&==&content=second").getBytes(StandardCharsets.UTF_8);
            default -> {
                type = random.nextBoolean() ? "text/plain" : "application/x-www-form-urlencoded; charset=latin1";
                body = form("content", text);
            }
        }
        if (random.nextInt(4) == 0 && type.startsWith("application/x-www")) {
            type = "application/json";
        }
        return new Sent("POST", path, type, body, random.nextInt(3) != 0, random.nextInt(8) == 0);
    }

    private HttpResponse<String> send(Sent s, ConsoleClient session) throws Exception {
        URI uri;
        try {
            uri = base.resolve(s.path().substring(1));
        } catch (IllegalArgumentException unsendable) {
            uri = base.resolve(s.path().substring(1).replace("%", "%25")
                    .replaceAll("[^A-Za-z0-9._~!$&'()*+,;=:@/?%-]", "_"));
        }
        HttpRequest.Builder r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20))
                .header("Cookie", "engram_console=" + session.session);
        if (s.crossSite()) {
            r.header("Origin", "https://evil.example");
        }
        if (s.method().equals("GET")) {
            r.GET();
        } else {
            byte[] body = s.body();
            if (s.token() && s.type().startsWith("application/x-www")) {
                body = concat(body, ("&csrf=" + session.csrf()).getBytes(StandardCharsets.UTF_8));
            }
            r.header("Content-Type", s.type()).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Null when the answer is what the console answers: a page or a redirect of its own, never a fault or JSON. */
    static String judge(HttpResponse<String> r) {
        int status = r.statusCode();
        if (status >= 500) {
            return "a 5xx";
        }
        if (status == 414 && r.body().contains("/problems/uri-too-long")) {
            return null; // refused by the HTTP decoder before the request line was read through: no route, no page
        }
        String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
        if (!csp.equals(ConsoleEdges.CSP)) {
            return "not the console's policy: " + csp;
        }
        if (status >= 300 && status < 400) {
            String location = r.headers().firstValue("Location").orElse("");
            String origin = r.request().uri().resolve("/").toString();
            String path = location.startsWith(origin) ? location.substring(origin.length() - 1) : location;
            return path.startsWith("/console") ? null : "a redirect out of the console: " + location;
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/html")) {
            return "not a page: " + type;
        }
        if (!type.toLowerCase(java.util.Locale.ROOT).replace(" ", "").contains(";charset=utf-8")) {
            return "a page without its charset: " + type;
        }
        String body = r.body();
        if (body.contains("Exception") || body.contains("dev.engram.") || body.contains("\tat ")) {
            return "a stack trace or class name";
        }
        return null;
    }

    private String snapshot(String store) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement("select (select count(*) "
                + "from journal where store_id = ?) || '/' || (select coalesce(string_agg(scope || '/' || name || '=' "
                + "|| hash, ','), '') from entry where store_id = ?)")) {
            q.setString(1, store);
            q.setString(2, store);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }

    private static byte[] form(String... fields) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.length; i += 2) {
            b.append(i == 0 ? "" : "&").append(fields[i]).append('=').append(encode(fields[i + 1]));
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
