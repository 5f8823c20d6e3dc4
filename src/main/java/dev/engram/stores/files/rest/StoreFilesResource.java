package dev.engram.stores.files.rest;

import dev.engram.access.rest.Gate;
import dev.engram.documents.Actor;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import dev.engram.stores.files.ArchiveLimits;
import dev.engram.stores.files.ArchiveReader;
import dev.engram.documents.DocumentText;
import dev.engram.stores.files.persistence.PgStoreExport;
import dev.engram.stores.files.persistence.PgStoreImport;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.util.concurrent.Semaphore;

/**
 * A store as files (docs/export-format.md): {@code GET .../export} streams its archive, a tar.gz in the reference
 * store's directory layout with Engram's own tiers under {@code _engram/}, and needs read on every scope (a key
 * limited to some scopes is refused 403 rather than given part of the store); {@code POST .../import} takes such an
 * archive into the store, all or nothing, and needs write on every scope.
 */
@Path("/v1/stores/{store}")
@Singleton
public class StoreFilesResource {

    /** The media type of an archive, both ways (RFC 6713). */
    public static final String GZIP = "application/gzip";

    @Inject
    Gate gate;

    @Inject
    PgStoreExport exporter;

    @Inject
    PgStoreImport importer;

    @Inject
    EngramConfig config;

    /** An import holds its archive unpacked: one at a time per replica. */
    private final Semaphore importing = new Semaphore(1);

    @GET
    @Path("/export")
    @Produces(GZIP)
    public Response export(@PathParam("store") String store) {
        String id = Params.store(store);
        gate.in(id).checkReadsEvery();
        if (!exporter.exists(id)) {
            throw NotFound.store(id);
        }
        StreamingOutput body = out -> exporter.export(id, out);
        return Response.ok(body, GZIP).header("Content-Disposition", "attachment; filename=\"" + id + ".tar.gz\"")
                .build();
    }

    @POST
    @Path("/import")
    @Consumes(GZIP)
    @Produces(MediaType.APPLICATION_JSON)
    public ImportJson importArchive(@PathParam("store") String store,
            @HeaderParam(Preconditions.SESSION) String session, byte[] body) {
        String id = Params.store(store);
        gate.in(id).checkWritesEvery();
        if (importer.maxEntryBytes(id).isEmpty()) {
            gate.mayCreate(id);
        }
        EngramConfig.Files files = config.files();
        ArchiveLimits limits = new ArchiveLimits(files.maxArchiveBytes(), files.maxMembers(), files.maxPathDepth(),
                files.maxPathBytes(), config.maxEntryBytesCeiling(), DocumentText.MAX_BYTES);
        if (!importing.tryAcquire()) {
            throw new Limited(Limited.Kind.CAPACITY, "imports", 1, 5,
                    "This replica is importing another archive (it holds one unpacked at a time); retry in a few "
                            + "seconds.");
        }
        try {
            var archive = ArchiveReader.read(body == null ? new byte[0] : body, limits);
            return ImportJson.of(importer.write(id, archive, Actor.ofCaller(gate.caller().id(), session)));
        } finally {
            importing.release();
        }
    }
}
