package dev.engram.contexts.cache;

/**
 * A tool output kept in a {@link ToolResultCache}: its full hash (SHA-256 hex), the short hash the cache issued,
 * the tool, and the content. A file-backed entry also records the file's path, modification time (nanoseconds) and
 * size, which its hash is made of instead of its content.
 */
public record CachedResult(String hash, String shortHash, String toolName, String content, boolean fileBacked,
        String filePath, long fileMtimeNanos, long fileSize) {

    public CachedResult {
        hash = hash == null ? "" : hash;
        shortHash = shortHash == null ? "" : shortHash;
        toolName = toolName == null ? "" : toolName;
        content = content == null ? "" : content;
        filePath = filePath == null ? "" : filePath;
    }
}
