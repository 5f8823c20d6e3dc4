package dev.engram.contexts.cache;

import dev.engram.kernel.Sha256;
import java.util.Optional;

/**
 * Full tool outputs kept aside so that a prompt can show a short reference instead; {@code tool_result_read}
 * reads them back ({@link ToolResultRead}). Entries are content-addressed: the same output of the same tool (or
 * the same file, unchanged) always gets the same short hash, and a short hash once issued is never given to other
 * content, not even after its entry is evicted.
 */
public interface ToolResultCache {

    /** How many hex digits a short hash starts with; it grows one at a time while it collides. */
    int MIN_SHORT_HASH = 4;

    /** Keeps {@code content}, the output of {@code tool}, and returns its short hash. */
    default String store(String tool, String content) {
        return keep(contentHash(tool, content), tool, content, false, "", 0, 0);
    }

    /**
     * Keeps {@code content}, the output of {@code tool} reading the file at {@code path} with modification time
     * {@code mtimeNanos} and {@code size} bytes; the hash is made of those, so re-reading an unchanged file gives
     * the same short hash.
     */
    default String storeFile(String tool, String path, long mtimeNanos, long size, String content) {
        return keep(fileHash(tool, path, mtimeNanos, size), tool, content, true, path, mtimeNanos, size);
    }

    /**
     * Keeps the output whose full hash is {@code full} (a file read when {@code file}, with its path, modification
     * time and size) and returns its short hash: the one it already has, or the shortest free prefix of the hash.
     */
    String keep(String full, String tool, String content, boolean file, String path, long mtimeNanos, long size);

    /** The entry a short hash, a full hash or a unique prefix of a full hash names; empty when none or ambiguous. */
    Optional<CachedResult> get(String hash);

    /** Forgets the entry {@code hash} names, retiring its short hash for good; false when there is none. */
    boolean evict(String hash);

    /** How many entries are kept. */
    int size();

    /**
     * The one result among {@code kept} whose full hash starts with {@code prefix}; empty when none, or when several
     * do (an ambiguous prefix names nothing).
     */
    static Optional<CachedResult> uniquePrefix(Iterable<CachedResult> kept, String prefix) {
        CachedResult match = null;
        for (CachedResult r : kept) {
            if (r.hash().startsWith(prefix)) {
                if (match != null) {
                    return Optional.empty();
                }
                match = r;
            }
        }
        return Optional.ofNullable(match);
    }

    /** The full hash of {@code content} from {@code tool}: SHA-256 hex of {@code tool NUL content}. */
    static String contentHash(String tool, String content) {
        return Sha256.hex(orEmpty(tool) + "\0" + orEmpty(content));
    }

    /** The full hash of a file read: SHA-256 hex of {@code tool NUL path NUL mtimeNanos NUL size}. */
    static String fileHash(String tool, String path, long mtimeNanos, long size) {
        return Sha256.hex(orEmpty(tool) + "\0" + orEmpty(path) + "\0" + mtimeNanos + "\0" + size);
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
