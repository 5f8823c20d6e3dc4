package dev.engram.rest;

import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.regex.Pattern;

/**
 * The most bytes a request may send, by its path: a store's archive to {@code POST /v1/stores/{store}/import} up to
 * {@code engram.files.max-upload-bytes} (an export of a full store is several megabytes of gzip), every other body up
 * to {@code engram.http.max-body-bytes}. {@link HttpEdges} applies it to a declared length, {@link RequestBodies} and
 * the MCP endpoint to a body that comes in chunks.
 */
@ApplicationScoped
public class BodyLimits {

    private static final Pattern IMPORT = Pattern.compile("/v1/stores/[^/]+/import");

    @Inject
    EngramConfig config;

    /** The lowest of the limits: a body no larger is under the limit of every path. */
    public long least() {
        return config.http().maxBodyBytes();
    }

    /** The limit of a body sent to {@code path} (normalized). */
    public long of(String path) {
        long body = config.http().maxBodyBytes();
        return IMPORT.matcher(path).matches() ? Math.max(config.files().maxUploadBytes(), body) : body;
    }
}
