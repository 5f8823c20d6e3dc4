package dev.engram.memories.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.kernel.Times;
import dev.engram.memories.Bank;
import dev.engram.memories.Memory;
import dev.engram.memories.Revision;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A memory's row and its JSON: the columns to select and the memory they hold, and the record the journal keeps of
 * it (the same members, snake_case, as the API answers).
 */
final class MemoryRecords {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The columns of {@code memory m} and {@code memory_access a}, in the order {@link #read} takes them. */
    static final String COLUMNS = "m.id, m.scope_type, m.scope_id, m.type, m.content, m.importance, m.tags, "
            + "m.keywords, m.source, m.confidence, m.evidence, m.valid_from, m.valid_to, m.superseded_by, "
            + "m.conflicting, m.archived, m.archived_at, m.archive_reason, coalesce(a.count, 0), a.last_accessed, "
            + "m.created_at, m.updated_at, m.revisions::text";

    private MemoryRecords() {
    }

    static Memory read(ResultSet r) throws SQLException {
        int i = 1;
        return new Memory(r.getString(i++), new Bank(r.getString(i++), r.getString(i++)), r.getString(i++),
                r.getString(i++), r.getDouble(i++), strings(r.getArray(i++)), strings(r.getArray(i++)),
                r.getString(i++), r.getDouble(i++), strings(r.getArray(i++)), time(r, i++), time(r, i++),
                r.getString(i++), r.getBoolean(i++), r.getBoolean(i++), time(r, i++), r.getString(i++),
                r.getLong(i++), time(r, i++), time(r, i++), time(r, i++), revisions(r.getString(i)));
    }

    private static Instant time(ResultSet r, int i) throws SQLException {
        OffsetDateTime t = r.getObject(i, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    static List<Revision> revisions(String json) {
        try {
            List<Map<String, String>> rows = JSON.readValue(json, new TypeReference<>() {
            });
            List<Revision> revisions = new ArrayList<>();
            for (Map<String, String> row : rows) {
                revisions.add(new Revision(Instant.parse(row.get("at")), row.get("by"), row.get("summary")));
            }
            return revisions;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A memory's revisions are not the JSON Engram wrote", e);
        }
    }

    static String revisionsJson(List<Revision> revisions) {
        ArrayNode a = JSON.createArrayNode();
        for (Revision v : revisions) {
            a.addObject().put("at", Times.format(v.at())).put("by", v.by()).put("summary", v.summary());
        }
        return a.toString();
    }

    /** The memory as JSON: what the journal records of it, member for member what the API answers. */
    static String json(Memory m) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", m.id());
        o.putObject("bank").put("type", m.bank().type()).put("id", m.bank().id());
        o.put("bank_id", m.bank().bankId());
        o.put("type", m.type());
        o.put("content", m.content());
        o.put("importance", m.importance());
        o.put("confidence", m.confidence());
        strings(o.putArray("tags"), m.tags());
        strings(o.putArray("keywords"), m.keywords());
        strings(o.putArray("evidence"), m.evidence());
        o.put("source", m.source());
        o.put("valid_from", text(m.validFrom()));
        o.put("valid_to", text(m.validTo()));
        o.put("superseded_by", m.supersededBy());
        o.put("conflicting", m.conflicting());
        o.put("archived", m.archived());
        o.put("archived_at", text(m.archivedAt()));
        o.put("archive_reason", m.archiveReason());
        o.put("access_count", m.accessCount());
        o.put("last_accessed", text(m.lastAccessed()));
        o.put("created_at", text(m.createdAt()));
        o.put("updated_at", text(m.updatedAt()));
        try {
            o.set("revisions", JSON.readTree(revisionsJson(m.revisions())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return o.toString();
    }

    /** The memory a journal record of {@link #json} holds. */
    static Memory fromJson(String record) {
        try {
            com.fasterxml.jackson.databind.JsonNode o = JSON.readTree(record);
            return new Memory(o.path("id").asText(), new Bank(o.path("bank").path("type").asText(),
                    o.path("bank").path("id").asText()), o.path("type").asText(), o.path("content").asText(),
                    o.path("importance").asDouble(), list(o, "tags"), list(o, "keywords"), o.path("source").asText(),
                    o.path("confidence").asDouble(), list(o, "evidence"), instant(o, "valid_from"),
                    instant(o, "valid_to"), o.path("superseded_by").asText(), o.path("conflicting").asBoolean(),
                    o.path("archived").asBoolean(), instant(o, "archived_at"), o.path("archive_reason").asText(),
                    o.path("access_count").asLong(), instant(o, "last_accessed"), instant(o, "created_at"),
                    instant(o, "updated_at"), revisions(o.path("revisions").toString()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A memory's journal record is not the JSON Engram wrote", e);
        }
    }

    private static List<String> list(com.fasterxml.jackson.databind.JsonNode o, String field) {
        List<String> values = new ArrayList<>();
        o.path(field).forEach(v -> values.add(v.asText()));
        return values;
    }

    private static Instant instant(com.fasterxml.jackson.databind.JsonNode o, String field) {
        com.fasterxml.jackson.databind.JsonNode v = o.path(field);
        return v.isTextual() ? Instant.parse(v.asText()) : null;
    }

    /** A mental model as JSON, as the journal records it. */
    static String modelJson(dev.engram.memories.MentalModel m) {
        ObjectNode o = JSON.createObjectNode().put("id", m.id()).put("name", m.name())
                .put("description", m.description()).put("content", m.content());
        strings(o.putArray("tags"), m.tags());
        return o.put("updated_at", text(m.updatedAt())).toString();
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }

    private static String text(Instant t) {
        return t == null ? null : Times.format(t);
    }
}
