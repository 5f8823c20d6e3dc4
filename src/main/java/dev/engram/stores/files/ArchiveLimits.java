package dev.engram.stores.files;

/**
 * The limits an import reads an archive under; each is checked as the archive is read, before anything is written.
 *
 * @param maxArchiveBytes the most bytes of the tar stream, ungzipped
 * @param maxMembers the most members (files and directories)
 * @param maxPathDepth the most segments of a member's path
 * @param maxPathBytes the most UTF-8 bytes of a member's path
 * @param maxEntryBytes the store's content bound, which every entry file's content must keep
 * @param maxDocumentBytes the most UTF-8 bytes of a document's content
 */
public record ArchiveLimits(long maxArchiveBytes, int maxMembers, int maxPathDepth, int maxPathBytes,
        int maxEntryBytes, int maxDocumentBytes) {

    public ArchiveLimits {
        if (maxArchiveBytes <= 0 || maxMembers <= 0 || maxPathDepth <= 0 || maxPathBytes <= 0 || maxEntryBytes <= 0
                || maxDocumentBytes < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** These limits with the content bound {@code bytes}. */
    public ArchiveLimits withMaxEntryBytes(int bytes) {
        return new ArchiveLimits(maxArchiveBytes, maxMembers, maxPathDepth, maxPathBytes, bytes, maxDocumentBytes);
    }
}
