package dev.engram.contexts.cache;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A cached tool result as a listing shows it, without its content: its hashes, the tool, the file a file read
 * read (path, modification time, size; "", 0 and 0 otherwise), how many bytes of UTF-8 its content holds, and when
 * it was cached (empty for a result cached before Engram kept the time).
 */
public record ListedResult(String hash, String shortHash, String toolName, boolean fileBacked, String filePath,
        long fileMtimeNanos, long fileSize, long bytes, Optional<Instant> cachedAt) {

    public ListedResult {
        hash = hash == null ? "" : hash;
        shortHash = shortHash == null ? "" : shortHash;
        toolName = toolName == null ? "" : toolName;
        filePath = filePath == null ? "" : filePath;
        Objects.requireNonNull(cachedAt, "cachedAt");
    }

    /** The listing of {@code r}, cached at {@code cachedAt} (null: not known). */
    public static ListedResult of(CachedResult r, Instant cachedAt) {
        return new ListedResult(r.hash(), r.shortHash(), r.toolName(), r.fileBacked(), r.filePath(),
                r.fileMtimeNanos(), r.fileSize(), dev.engram.kernel.Utf8.length(r.content()),
                Optional.ofNullable(cachedAt));
    }
}
