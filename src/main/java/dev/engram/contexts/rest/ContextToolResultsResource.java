package dev.engram.contexts.rest;

import dev.engram.access.rest.Gate;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.app.ContextJson;
import dev.engram.contexts.app.ContextWrites;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultRead;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.Params;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A context's cache of tool outputs: what an agent keeps ({@code POST}) so that a pruned prompt can name it by hash,
 * and reads back a window of ({@code GET}, as the tool {@code tool_result_read} does). Grants and keys as for the
 * rest of the context ({@link ContextResource}).
 */
@Path("/v1/stores/{store}/contexts/{id}/tool-results")
@Produces(MediaType.APPLICATION_JSON)
public class ContextToolResultsResource {

    @Inject
    ContextStore contexts;

    @Inject
    Gate gate;

    @Inject
    ToolResultReads reads;

    @Inject
    IdempotencyKeys keys;

    @PathParam("store")
    String storeId;

    @PathParam("id")
    String contextId;

    /** Keeps a tool output in the context's cache and answers its short and full hash. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.Cached> cacheToolResult(ContextJson.ToolResult body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        ContextJson.ToolResult b = ContextWrites.required(body);
        String content = b.content() == null ? "" : b.content();
        String tool = b.toolName() == null ? "" : b.toolName();
        boolean file = b.filePath() != null && !b.filePath().isEmpty();
        if (!file && (b.fileMtimeNanos() != null || b.fileSize() != null)) {
            throw new Invalid("file-path-missing", "file_path", "file_mtime_nanos and file_size describe a file "
                    + "read; send file_path with them.");
        }
        String path = "/v1/stores/" + storeId + "/contexts/" + contextId + "/tool-results";
        return keys.answer(contexts.change(store(), id(), keys.once(key, "POST", path, body, t -> 200, t -> t),
                (current, cache) -> {
            current.orElseThrow(() -> NotFound.context(contextId));
            int before = cache.size();
            String shortHash = file ? cache.storeFile(tool, b.filePath(), orZero(b.fileMtimeNanos()),
                    orZero(b.fileSize()), content) : cache.store(tool, content);
            CachedResult kept = cache.get(shortHash).orElseThrow();
            ContextJson.Cached answer = new ContextJson.Cached(kept.shortHash(), kept.hash());
            if (cache.size() == before) {
                return Edited.unchanged(answer);
            }
            return new Edited<>(current.get(), "context.tool_result_cached", ContextWrites.cachedRecord(kept),
                    answer);
        }), 200);
    }

    /** What {@code tool_result_read} answers for a cached output. */
    public record Read(String hash, String shortHash, String toolName, String text) {
    }

    /**
     * A window of a cached tool output: lines {@code start_line} (1) to {@code start_line + num_lines - 1} (500 at
     * most), or only {@code line}; the hash may be the short hash, the full hash or a prefix naming one result.
     */
    @GET
    @Path("{hash}")
    public Read toolResult(@PathParam("hash") String hash, @QueryParam("start_line") String startLine,
            @QueryParam("num_lines") String numLines, @QueryParam("line") String line) {
        readable();
        if (hash == null || !hash.matches("[0-9a-f]{1,64}")) {
            throw new Invalid("hash-format", "hash", "A tool result's hash is 1 to 64 lower-case hex digits.");
        }
        int start = (int) Params.number(startLine, "start_line", 1, Integer.MAX_VALUE, 1);
        int count = (int) Params.number(numLines, "num_lines", 1, ToolResultRead.MAX_LINES, ToolResultRead.MAX_LINES);
        int only = (int) Params.number(line, "line", 1, Integer.MAX_VALUE, 0);
        CachedResult found = reads.find(store(), id(), hash).orElseThrow(() -> NotFound.toolResult(contextId, hash));
        ToolResultRead.Answer answer = ToolResultRead.read(found, hash, start, count, only);
        return new Read(found.hash(), found.shortHash(), found.toolName(), answer.text());
    }

    private String store() {
        return Params.store(storeId);
    }

    private String id() {
        ContextRules.checkId(contextId);
        return contextId;
    }

    private void readable() {
        gate.checkReadsMemories(store());
        id();
    }

    private void writable() {
        gate.checkChangesMemories(store());
        id();
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }
}
