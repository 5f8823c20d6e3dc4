package dev.engram.stores.files.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.rest.Api;
import dev.engram.stores.files.rest.Tars.Member;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile archives, each refused with its problem type, the member and the rule, and nothing written: every table
 * an import writes holds what it held before, in a store that had entries and in one that did not exist.
 */
@QuarkusTest
class HostileArchiveTest {

    static final String OK = "---\nname: style\n---\nShort.\n";

    @Inject
    AgroalDataSource db;

    String store;

    @BeforeEach
    void seed() {
        store = Api.newStore();
        Api.put(store, "user", "style", "{\"content\": \"Long answers.\"}").then().statusCode(201);
    }

    static byte[] files(Member... members) {
        List<Member> all = new ArrayList<>(List.of(Member.file("user/style.md", OK)));
        all.addAll(Arrays.asList(members));
        return Tars.gzip(all);
    }

    static Stream<Arguments> archives() {
        byte[] good = files();
        String deep = String.join("/", IntStream.range(0, 20).mapToObj(i -> "d").toList());
        List<Member> many = IntStream.range(0, 50_001).mapToObj(i -> Member.of("_engram/documents/d" + i + "/",
                TarConstants.LF_DIR, "")).toList();
        // 1,400 documents of 99,000 bytes, each under a document's limit: 138 MB once ungzipped, 140 KB as sent.
        String page = "x".repeat(99_000);
        List<Member> bomb = IntStream.range(0, 1_400).mapToObj(i -> Member.file("_engram/documents/b" + i + ".md",
                page)).toList();
        return Stream.of(
                Arguments.of("gzip bomb", Tars.gzip(bomb), 413, "archive-too-large", "archive-bytes"),
                Arguments.of("zip-slip", files(Member.file("user/../../etc/passwd", "x")), 422, "archive-unsafe",
                        "path-escapes"),
                Arguments.of("absolute path", files(Member.file("/etc/passwd", "x")), 422, "archive-unsafe",
                        "path-absolute"),
                Arguments.of("symlink", files(Member.of("user/link.md", TarConstants.LF_SYMLINK, "/etc/passwd")),
                        422, "archive-unsafe", "member-type"),
                Arguments.of("hardlink", files(Member.of("user/hard.md", TarConstants.LF_LINK, "user/style.md")),
                        422, "archive-unsafe", "member-type"),
                Arguments.of("device", files(Member.of("user/dev.md", TarConstants.LF_CHR, "")), 422,
                        "archive-unsafe", "member-type"),
                Arguments.of("duplicate name", files(Member.file("./user/style.md", OK)), 422, "archive-unsafe",
                        "duplicate-member"),
                Arguments.of("not NFC", files(Member.file("_engram/documents/cafe\u0301.md", "x")), 422,
                        "archive-unsafe", "path-normalization"),
                Arguments.of("unknown top-level directory", files(Member.file("etc/passwd", "x")), 422,
                        "archive-unsafe", "unknown-member"),
                Arguments.of("too many entries", Tars.gzip(many), 413, "archive-too-large", "member-count"),
                Arguments.of("too deep", files(Member.file("_engram/documents/" + deep + "/a.md", "x")), 413,
                        "archive-too-large", "path-depth"),
                Arguments.of("oversize entry", files(Member.file("user/big.md", "x".repeat(5000))), 413,
                        "archive-too-large", "entry-size"),
                Arguments.of("truncated gzip", Arrays.copyOf(good, good.length - 12), 400, "archive-malformed",
                        "gzip-truncated"),
                Arguments.of("not gzip", "user/style.md".getBytes(), 400, "archive-malformed", "not-gzip"),
                Arguments.of("gzip, not tar", gzip("just some text, not a tar archive at all".repeat(20)), 400,
                        "archive-malformed", "tar-malformed"),
                Arguments.of("bad frontmatter", files(Member.file("user/bad.md", "---\nno colon\n---\nx")), 422,
                        "archive-invalid", "frontmatter-line"),
                Arguments.of("unclosed frontmatter", files(Member.file("user/bad.md", "---\nname: bad\n")), 422,
                        "archive-invalid", "frontmatter-unclosed"),
                Arguments.of("bad memory line", files(Member.file("_engram/memories.jsonl", "{\"id\": 1}\n")), 422,
                        "archive-invalid", "memory-line"),
                Arguments.of("journal out of order", files(Member.file("journal.jsonl", line(2) + "\n" + line(1)
                        + "\n")), 422, "archive-invalid", "journal-order"));
    }

    static String line(int seq) {
        return "{\"seq\":" + seq + ",\"entry\":{\"scope\":\"user\",\"name\":\"style\",\"content\":\"Short.\\n\","
                + "\"hash\":\"sha256:x\",\"updated\":\"2026-09-20T10:00:00Z\"},\"at\":\"2026-09-20T10:00:00Z\"}";
    }

    static byte[] gzip(String text) {
        var out = new java.io.ByteArrayOutputStream();
        try (var gz = new java.util.zip.GZIPOutputStream(out)) {
            gz.write(text.getBytes());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("archives")
    void eachHostileArchiveIsRefusedWithItsProblemAndWritesNothing(String label, byte[] archive, int status,
            String type, String rule) throws Exception {
        for (String target : List.of(store, Api.newStore())) {
            String before = snapshot();
            Response r = given().contentType("application/gzip").body(archive)
                    .post("/v1/stores/" + target + "/import");
            assertEquals(status, r.statusCode(), label + ": " + r.asString());
            assertEquals("https://engram.dev/problems/" + type, r.jsonPath().getString("type"), r.asString());
            assertEquals(rule, r.jsonPath().getString("rule"), r.asString());
            assertEquals(before, snapshot(), label + " wrote nothing");
        }
    }

    private String snapshot() throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("select (select count(*) || '/' || coalesce(sum(seq), 0) from store), "
                        + "(select md5(coalesce(string_agg(store_id || scope || name || hash, ',' order by store_id, "
                        + "scope, name), '')) from entry), (select count(*) from journal), "
                        + "(select count(*) from document), (select count(*) from memory), "
                        + "(select count(*) from context), (select count(*) from store_creator)")) {
            r.next();
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= 7; i++) {
                b.append(r.getString(i)).append(' ');
            }
            return b.toString();
        }
    }
}
