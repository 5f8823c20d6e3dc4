package dev.engram.documents.stores.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.ConflictException;
import com.anthropic.errors.NotFoundException;
import com.anthropic.errors.PermissionDeniedException;
import com.anthropic.models.beta.memorystores.BetaManagedAgentsMemoryStore;
import com.anthropic.models.beta.memorystores.MemoryStoreCreateParams;
import com.anthropic.models.beta.memorystores.MemoryStoreListParams;
import com.anthropic.models.beta.memorystores.MemoryStoreUpdateParams;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemory;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemoryListItem;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsMemoryView;
import com.anthropic.models.beta.memorystores.memories.BetaManagedAgentsPrecondition;
import com.anthropic.models.beta.memorystores.memories.MemoryCreateParams;
import com.anthropic.models.beta.memorystores.memories.MemoryDeleteParams;
import com.anthropic.models.beta.memorystores.memories.MemoryListParams;
import com.anthropic.models.beta.memorystores.memories.MemoryRetrieveParams;
import com.anthropic.models.beta.memorystores.memories.MemoryUpdateParams;
import com.anthropic.models.beta.memorystores.memoryversions.BetaManagedAgentsMemoryVersion;
import com.anthropic.models.beta.memorystores.memoryversions.BetaManagedAgentsMemoryVersionOperation;
import com.anthropic.models.beta.memorystores.memoryversions.MemoryVersionListParams;
import com.anthropic.models.beta.memorystores.memoryversions.MemoryVersionRedactParams;
import com.anthropic.models.beta.memorystores.memoryversions.MemoryVersionRetrieveParams;
import dev.engram.TestAuth;
import dev.engram.kernel.Sha256;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Memory Stores API driven by Anthropic's official Java SDK (3.14.0) against a running Engram, over real HTTP:
 * every method of {@code memoryStores()}, {@code memories()} and {@code memoryVersions()}, preconditions, path
 * conflicts, depth-1 listing, pagination with the SDK's auto-pager, redaction down to the journal, archive, ids
 * across renames and a version per change with its actor.
 */
@QuarkusTest
class MemoryStoresSdkTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource db;

    AnthropicClient client;

    @BeforeEach
    void client() {
        client = client(TestAuth.OPERATOR_KEY);
    }

    AnthropicClient client(String key) {
        return AnthropicOkHttpClient.builder().baseUrl(base.toString().replaceAll("/$", "")).apiKey(key)
                .maxRetries(0).build();
    }

    BetaManagedAgentsMemoryStore newStore(String name) {
        return client.beta().memoryStores().create(MemoryStoreCreateParams.builder().name(name)
                .description("for " + name).metadata(MemoryStoreCreateParams.Metadata.builder()
                        .putAdditionalProperty("team", JsonValue.from("core")).build()).build());
    }

    BetaManagedAgentsMemory create(String store, String path, String content) {
        return client.beta().memoryStores().memories().create(store, MemoryCreateParams.builder().path(path)
                .content(content).build());
    }

    @Test
    void storesAreCreatedRetrievedUpdatedListedArchivedAndDeleted() {
        BetaManagedAgentsMemoryStore made = newStore("Project notes");
        assertTrue(made.id().startsWith("memstore_"), made.id());
        assertEquals("Project notes", made.name());
        assertEquals("for Project notes", made.description());
        assertEquals("core", made.metadata()._additionalProperties().get("team").asStringOrThrow());
        assertTrue(made.archivedAt().isEmpty());

        BetaManagedAgentsMemoryStore got = client.beta().memoryStores().retrieve(made.id());
        assertEquals(made.createdAt(), got.createdAt());
        assertEquals(made.name(), got.name());

        BetaManagedAgentsMemoryStore renamed = client.beta().memoryStores().update(made.id(),
                MemoryStoreUpdateParams.builder().name("Renamed").metadata(MemoryStoreUpdateParams.Metadata
                        .builder().putAdditionalProperty("team", JsonValue.from(null))
                        .putAdditionalProperty("stage", JsonValue.from("beta")).build()).build());
        assertEquals("Renamed", renamed.name());
        assertEquals("for Project notes", renamed.description(), "a description not sent is kept");
        assertEquals(List.of("stage"), List.copyOf(renamed.metadata()._additionalProperties().keySet()));

        List<String> listed = new ArrayList<>();
        client.beta().memoryStores().list(MemoryStoreListParams.builder().limit(2).build()).autoPager()
                .forEach(s -> listed.add(s.id()));
        assertTrue(listed.contains(made.id()), "the new store is listed: " + listed.size());
        assertEquals(listed.size(), listed.stream().distinct().count(), "no store twice across pages");

        BetaManagedAgentsMemoryStore archived = client.beta().memoryStores().archive(made.id());
        assertTrue(archived.archivedAt().isPresent());
        assertEquals(archived.archivedAt(), client.beta().memoryStores().archive(made.id()).archivedAt(),
                "archiving again answers the store as it is");
        List<String> active = new ArrayList<>();
        client.beta().memoryStores().list().autoPager().forEach(s -> active.add(s.id()));
        assertFalse(active.contains(made.id()), "an archived store is left out unless asked for");
        List<String> all = new ArrayList<>();
        client.beta().memoryStores().list(MemoryStoreListParams.builder().includeArchived(true).build())
                .autoPager().forEach(s -> all.add(s.id()));
        assertTrue(all.contains(made.id()));
        assertThrows(BadRequestException.class, () -> client.beta().memoryStores().update(made.id(),
                MemoryStoreUpdateParams.builder().name("again").build()), "an archived store's profile is read-only");

        assertEquals(made.id(), client.beta().memoryStores().delete(made.id()).id());
        assertThrows(NotFoundException.class, () -> client.beta().memoryStores()
                .retrieve("memstore_no-such-store-" + UUID.randomUUID().toString().substring(0, 8)));
    }

    @Test
    void memoriesKeepTheirIdAcrossRenamesWithAVersionPerChangeByTheKey() {
        String store = newStore("ids").id();
        BetaManagedAgentsMemory m = create(store, "/notes/todo.md", "buy milk");
        assertTrue(m.id().startsWith("mem_"));
        assertEquals(store, m.memoryStoreId());
        assertEquals(Sha256.hex("buy milk"), m.contentSha256());
        assertEquals(8, m.contentSizeBytes());
        assertTrue(m.content().isEmpty(), "create answers the basic view");

        BetaManagedAgentsMemory moved = client.beta().memoryStores().memories().update(m.id(), MemoryUpdateParams
                .builder().memoryStoreId(store).path("/notes/done.md").build());
        assertEquals(m.id(), moved.id());
        assertEquals("/notes/done.md", moved.path());
        BetaManagedAgentsMemory got = client.beta().memoryStores().memories().retrieve(m.id(),
                MemoryRetrieveParams.builder().memoryStoreId(store).build());
        assertEquals("buy milk", got.content().orElseThrow(), "retrieve answers the full view");
        assertEquals(moved.memoryVersionId(), got.memoryVersionId());
        client.beta().memoryStores().memories().update(m.id(), MemoryUpdateParams.builder().memoryStoreId(store)
                .content("bought milk").build());
        client.beta().memoryStores().memories().delete(m.id(), MemoryDeleteParams.builder().memoryStoreId(store)
                .expectedContentSha256(Sha256.hex("bought milk")).build());
        assertThrows(NotFoundException.class, () -> client.beta().memoryStores().memories().retrieve(m.id(),
                MemoryRetrieveParams.builder().memoryStoreId(store).build()));

        List<BetaManagedAgentsMemoryVersion> versions = new ArrayList<>();
        client.beta().memoryStores().memoryVersions().list(store, MemoryVersionListParams.builder().memoryId(m.id())
                .build()).autoPager().forEach(versions::add);
        assertEquals(List.of(BetaManagedAgentsMemoryVersionOperation.DELETED,
                BetaManagedAgentsMemoryVersionOperation.MODIFIED, BetaManagedAgentsMemoryVersionOperation.MODIFIED,
                BetaManagedAgentsMemoryVersionOperation.CREATED), versions.stream().map(v -> v.operation()).toList(),
                "a version per change, newest first");
        for (BetaManagedAgentsMemoryVersion v : versions) {
            assertEquals("operator", v.createdBy().orElseThrow().asApi().apiKeyId(), "the key's api_actor");
            assertEquals(m.id(), v.memoryId());
        }
        BetaManagedAgentsMemoryVersion first = client.beta().memoryStores().memoryVersions().retrieve(
                versions.get(3).id(), MemoryVersionRetrieveParams.builder().memoryStoreId(store).build());
        assertEquals("buy milk", first.content().orElseThrow());
        assertEquals("/notes/todo.md", first.path().orElseThrow());
        assertEquals(1, countVersions(store, BetaManagedAgentsMemoryVersionOperation.CREATED));
    }

    @Test
    void aVersionCarriesTheApiActorOfTheKeyThatWroteIt() {
        var issued = given().contentType("application/json").body("{\"name\": \"sdk-writer\", \"grants\": "
                + "[{\"stores\": \"sdk-*\", \"role\": \"write\"}]}").post("/v1/keys").then().statusCode(201)
                .extract();
        AnthropicClient writer = client(issued.path("key"));
        BetaManagedAgentsMemoryStore store = writer.beta().memoryStores().create(MemoryStoreCreateParams.builder()
                .name("the writer's").build());
        assertTrue(store.id().startsWith("memstore_sdk-ms-"), "the id starts as the grant allows: " + store.id());
        writer.beta().memoryStores().memories().create(store.id(), MemoryCreateParams.builder().path("/a.md")
                .content("x").build());
        BetaManagedAgentsMemoryVersion v = writer.beta().memoryStores().memoryVersions().list(store.id()).data()
                .get(0);
        assertEquals(issued.path("id"), v.createdBy().orElseThrow().asApi().apiKeyId());
        assertThrows(PermissionDeniedException.class, () -> writer.beta().memoryStores().archive(store.id()),
                "archiving takes admin");
        assertThrows(NotFoundException.class, () -> writer.beta().memoryStores().retrieve(newStore("not theirs")
                .id()), "another tenant's store answers as a missing one");
    }

    @Test
    void preconditionsRefuseAChangedMemoryButNotOneAlreadyAsAsked() {
        String store = newStore("preconditions").id();
        BetaManagedAgentsMemory m = create(store, "/p.md", "one");
        BetaManagedAgentsPrecondition stale = BetaManagedAgentsPrecondition.builder()
                .contentSha256(Sha256.hex("zero")).build();
        ConflictException refused = assertThrows(ConflictException.class, () -> client.beta().memoryStores()
                .memories().update(m.id(), MemoryUpdateParams.builder().memoryStoreId(store).content("two")
                        .precondition(stale).build()));
        assertEquals("memory_precondition_failed_error", errorType(refused));
        assertEquals("false", refused.headers().values("x-should-retry").get(0));

        long before = countVersions(store, null);
        BetaManagedAgentsMemory same = client.beta().memoryStores().memories().update(m.id(), MemoryUpdateParams
                .builder().memoryStoreId(store).content("one").precondition(stale).build());
        assertEquals(m.memoryVersionId(), same.memoryVersionId(), "already as asked: 200, the same version");
        assertEquals(before, countVersions(store, null), "a no-op writes no version");

        BetaManagedAgentsMemory two = client.beta().memoryStores().memories().update(m.id(), MemoryUpdateParams
                .builder().memoryStoreId(store).content("two").precondition(BetaManagedAgentsPrecondition.builder()
                        .contentSha256(m.contentSha256()).build()).build());
        assertNotEquals(m.memoryVersionId(), two.memoryVersionId());
        assertThrows(ConflictException.class, () -> client.beta().memoryStores().memories().delete(m.id(),
                MemoryDeleteParams.builder().memoryStoreId(store).expectedContentSha256(m.contentSha256()).build()));
    }

    @Test
    void aPathTakenOrUnderOrAboveAnotherIsAConflictNamingIt() {
        String store = newStore("conflicts").id();
        BetaManagedAgentsMemory a = create(store, "/notes/a.md", "a");
        for (String path : List.of("/notes/a.md", "/notes/a.md/deeper.md", "/notes")) {
            ConflictException e = assertThrows(ConflictException.class, () -> create(store, path, "x"), path);
            com.fasterxml.jackson.databind.JsonNode error = error(e);
            assertEquals("memory_path_conflict_error", error.path("type").asText(), path);
            assertEquals(a.id(), error.path("conflicting_memory_id").asText(), path);
            assertEquals("/notes/a.md", error.path("conflicting_path").asText(), path);
        }
        BetaManagedAgentsMemory b = create(store, "/notes/b.md", "b");
        assertThrows(ConflictException.class, () -> client.beta().memoryStores().memories().update(b.id(),
                MemoryUpdateParams.builder().memoryStoreId(store).path("/notes/a.md").build()));
    }

    @Test
    void depthOneRollsDeeperPathsIntoPrefixesAndTheAutoPagerReadsEveryPage() {
        String store = newStore("listing").id();
        for (String path : List.of("/a.md", "/b/one.md", "/b/two.md", "/b/c/three.md", "/d/four.md", "/e.md")) {
            create(store, path, "text of " + path);
        }
        List<String> top = new ArrayList<>();
        client.beta().memoryStores().memories().list(store, MemoryListParams.builder().depth(1).limit(2).build())
                .autoPager().forEach(i -> top.add(i.isMemoryPrefix() ? "prefix " + i.asMemoryPrefix().path()
                        : i.asMemory().path()));
        assertEquals(List.of("/a.md", "prefix /b/", "prefix /d/", "/e.md"), top);

        List<String> under = new ArrayList<>();
        client.beta().memoryStores().memories().list(store, MemoryListParams.builder().pathPrefix("/b/").depth(1)
                .build()).autoPager().forEach(i -> under.add(i.path()));
        assertEquals(List.of("/b/c/", "/b/one.md", "/b/two.md"), under);

        List<BetaManagedAgentsMemoryListItem> every = new ArrayList<>();
        client.beta().memoryStores().memories().list(store, MemoryListParams.builder().limit(1)
                .view(BetaManagedAgentsMemoryView.FULL).build()).autoPager().forEach(every::add);
        assertEquals(6, every.size(), "every memory over six pages of one");
        assertEquals("text of /a.md", every.get(0).asMemory().content().orElseThrow());

        List<String> versions = new ArrayList<>();
        client.beta().memoryStores().memoryVersions().list(store, MemoryVersionListParams.builder().limit(4).build())
                .autoPager().forEach(v -> versions.add(v.id()));
        assertEquals(6, versions.size());
        assertEquals(6, versions.stream().distinct().count());
    }

    @Test
    void redactionErasesTheContentFromTheVersionAndTheJournalButNotTheCurrentOne() throws Exception {
        String store = newStore("redaction").id();
        BetaManagedAgentsMemory m = create(store, "/secret.md", "my password is hunter2");
        BetaManagedAgentsMemory now = client.beta().memoryStores().memories().update(m.id(), MemoryUpdateParams
                .builder().memoryStoreId(store).content("no secret here").build());
        BadRequestException current = assertThrows(BadRequestException.class, () -> client.beta().memoryStores()
                .memoryVersions().redact(now.memoryVersionId(), MemoryVersionRedactParams.builder()
                        .memoryStoreId(store).build()));
        assertTrue(current.getMessage().contains("current"), current.getMessage());

        BetaManagedAgentsMemoryVersion redacted = client.beta().memoryStores().memoryVersions().redact(
                m.memoryVersionId(), MemoryVersionRedactParams.builder().memoryStoreId(store).build());
        assertTrue(redacted.content().isEmpty());
        assertTrue(redacted.path().isEmpty());
        assertTrue(redacted.contentSha256().isEmpty());
        assertTrue(redacted.contentSizeBytes().isEmpty());
        assertTrue(redacted.redactedAt().isPresent());
        assertEquals("operator", redacted.redactedBy().orElseThrow().asApi().apiKeyId());
        assertEquals("operator", redacted.createdBy().orElseThrow().asApi().apiKeyId(), "the actor stays");

        BetaManagedAgentsMemoryVersion again = client.beta().memoryStores().memoryVersions().retrieve(
                m.memoryVersionId(), MemoryVersionRetrieveParams.builder().memoryStoreId(store).build());
        assertTrue(again.content().isEmpty());
        String journal = journalRecord(store, Long.parseLong(m.memoryVersionId().substring("memver_".length())));
        assertFalse(journal.contains("hunter2"), journal);
        assertFalse(journal.contains("/secret.md"), journal);
    }

    @Test
    void anArchivedStoreIsReadOnly() {
        String store = newStore("archive").id();
        BetaManagedAgentsMemory m = create(store, "/kept.md", "kept");
        client.beta().memoryStores().archive(store);
        assertThrows(BadRequestException.class, () -> create(store, "/new.md", "x"));
        assertThrows(BadRequestException.class, () -> client.beta().memoryStores().memories().update(m.id(),
                MemoryUpdateParams.builder().memoryStoreId(store).content("changed").build()));
        assertThrows(BadRequestException.class, () -> client.beta().memoryStores().memories().delete(m.id(),
                MemoryDeleteParams.builder().memoryStoreId(store).build()));
        assertEquals("kept", client.beta().memoryStores().memories().retrieve(m.id(), MemoryRetrieveParams.builder()
                .memoryStoreId(store).build()).content().orElseThrow(), "reads still answer");
    }

    @Test
    void deletingAStoreErasesItsMemoriesAndTheirHistory() throws Exception {
        String store = newStore("deleted").id();
        BetaManagedAgentsMemory m = create(store, "/private.md", "private words");
        client.beta().memoryStores().delete(store);
        assertTrue(client.beta().memoryStores().memories().list(store).data().isEmpty());
        for (BetaManagedAgentsMemoryVersion v : client.beta().memoryStores().memoryVersions().list(store).data()) {
            assertTrue(v.redactedAt().isPresent() && v.content().isEmpty(), v.id());
        }
        assertFalse(journalRecord(store, Long.parseLong(m.memoryVersionId().substring(7))).contains("private"));
    }

    static String errorType(AnthropicServiceException e) {
        return error(e).path("type").asText();
    }

    /** The {@code error} object of the envelope an SDK exception holds. */
    static com.fasterxml.jackson.databind.JsonNode error(AnthropicServiceException e) {
        return e.body().convert(com.fasterxml.jackson.databind.JsonNode.class).path("error");
    }

    private long countVersions(String store, BetaManagedAgentsMemoryVersionOperation operation) {
        MemoryVersionListParams.Builder p = MemoryVersionListParams.builder();
        if (operation != null) {
            p.operation(operation);
        }
        long[] n = {0};
        client.beta().memoryStores().memoryVersions().list(store, p.build()).autoPager().forEach(v -> n[0]++);
        return n[0];
    }

    private String journalRecord(String memoryStore, long seq) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement("select record::text "
                + "from journal where store_id = ? and seq = ?")) {
            s.setString(1, memoryStore.substring("memstore_".length()));
            s.setLong(2, seq);
            try (ResultSet r = s.executeQuery()) {
                assertTrue(r.next(), "record " + seq);
                return r.getString(1);
            }
        }
    }
}
