package dev.engram.entries.rest;

import dev.engram.problems.ReadOnly;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.kernel.Invalid;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.ManifestFold;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Pure manifest helpers for a harness that keeps its own session log: write a record, fold one, fold a path. No
 * store is read or written.
 */
@Path("/v1/manifests")
@ReadOnly
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ManifestResource {

    /** {@code manifest} to record after {@code prev} (none: the session's first). */
    public record RecordSinceBody(ManifestJson manifest, ManifestJson prev) {
    }

    /** A record, and whether it is a delta or the whole manifest. */
    public record RecordReply(@JsonRawValue String record, String form, int bytes) {

        static RecordReply of(String record) {
            return new RecordReply(record, record.contains("\"base\"") ? "delta" : "whole",
                    dev.engram.kernel.Utf8.length(record));
        }
    }

    /** The manifest in force before, and the record to fold onto it. */
    public record ApplyBody(ManifestJson manifest, JsonNode record) {
    }

    /** A manifest and its hash. */
    public record ManifestReply(ManifestJson manifest, String manifestHash) {

        static ManifestReply of(Manifest m) {
            return new ManifestReply(ManifestJson.of(m), m.hash());
        }
    }

    /** The records of a session's path, in order, and optionally the next manifest to record. */
    public record FoldBody(List<JsonNode> records, ManifestJson next) {
    }

    /** The manifest in force after the records, and the record to write for {@code next}, if given. */
    public record FoldReply(ManifestJson manifest, String manifestHash, @JsonRawValue String record) {
    }

    @POST
    @Path("record-since")
    public RecordReply recordSince(RecordSinceBody body) {
        if (body == null || body.manifest() == null) {
            throw new Invalid("manifest-missing", "manifest", "Send {\"manifest\": {...}, \"prev\": {...}}; prev may "
                    + "be left out for a session's first manifest.");
        }
        Manifest next = body.manifest().toManifest();
        return RecordReply.of(body.prev() == null ? next.record() : next.recordSince(body.prev().toManifest()));
    }

    @POST
    @Path("apply")
    public ManifestReply apply(ApplyBody body) {
        if (body == null || body.record() == null) {
            throw new Invalid("record-missing", "record", "Send {\"manifest\": {...}, \"record\": {...}}, the manifest "
                    + "in force and the record to fold onto it.");
        }
        Manifest inForce = body.manifest() == null ? Manifest.EMPTY : body.manifest().toManifest();
        return ManifestReply.of(Manifest.apply(inForce, body.record().toString()));
    }

    @POST
    @Path("fold")
    public FoldReply fold(FoldBody body) {
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty or null; send {\"records\": [...]}, the records "
                    + "to fold in order, and \"next\" for the record that would follow them.");
        }
        ManifestFold fold = new ManifestFold();
        List<JsonNode> records = body.records() == null ? List.of() : body.records();
        for (int i = 0; i < records.size(); i++) {
            try {
                fold.apply(records.get(i).toString());
            } catch (Invalid e) {
                throw new Invalid(e.rule(), "records." + i, "Record " + i + ": " + e.getMessage());
            }
        }
        Manifest m = fold.manifest();
        String next = body.next() == null ? null : fold.record(body.next().toManifest());
        return new FoldReply(ManifestJson.of(m), m.hash(), next);
    }
}
