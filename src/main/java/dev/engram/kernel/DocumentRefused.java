package dev.engram.kernel;

/**
 * A document's write that the store's state refuses (ADR 0009), with what the caller needs to act: the path is
 * another document's ({@link Kind#PATH_TAKEN}, {@code id} holds it), the content changed since it was read
 * ({@link Kind#CHANGED}: {@code want} and {@code have} are content SHA-256s), the store is archived
 * ({@link Kind#ARCHIVED}), or the content is over the bound ({@link Kind#TOO_LARGE}: {@code size}, {@code limit}).
 */
public final class DocumentRefused extends EngramException {

    public enum Kind { PATH_TAKEN, CHANGED, ARCHIVED, TOO_LARGE }

    private final Kind kind;
    private final String path;
    private final String id;
    private final String want;
    private final String have;
    private final long size;
    private final long limit;

    private DocumentRefused(Kind kind, String path, String id, String want, String have, long size, long limit,
            String message) {
        super(message);
        this.kind = kind;
        this.path = path;
        this.id = id;
        this.want = want;
        this.have = have;
        this.size = size;
        this.limit = limit;
    }

    /** {@code path} is live document {@code holder}'s. */
    public static DocumentRefused pathTaken(String path, String holder) {
        return new DocumentRefused(Kind.PATH_TAKEN, path, holder, "", "", 0, 0, "Path " + path + " is taken by "
                + "document " + holder + ". Choose another path, or update that document.");
    }

    /**
     * {@code path} collides with live document {@code holder} at {@code holderPath}: the same path, one under it or
     * one above it ({@link #have} is then the holder's path).
     */
    public static DocumentRefused pathTaken(String path, String holder, String holderPath) {
        String message = holderPath.equals(path) ? "Path " + path + " is taken by memory " + holder + "."
                : "Path " + path + " collides with memory " + holder + " at " + holderPath + ": a path may not lie "
                + "under or above another memory's.";
        return new DocumentRefused(Kind.PATH_TAKEN, path, holder, "", holderPath, 0, 0, message + " Choose another "
                + "path, or update that memory.");
    }

    /** Document {@code id} at {@code path} holds content of digest {@code have}, not {@code want}. */
    public static DocumentRefused changed(String id, String path, String want, String have) {
        return new DocumentRefused(Kind.CHANGED, path, id, want, have, 0, 0, "Document " + id + " (" + path
                + ") changed since it was read: its content's SHA-256 is " + have + ", not " + want + ". Read it "
                + "again and apply the change to what it holds now.");
    }

    /** The store is archived, so read-only. */
    public static DocumentRefused archived(String store) {
        return new DocumentRefused(Kind.ARCHIVED, "", "", "", "", 0, 0, "Store " + store + " is archived, so its "
                + "documents are read-only. Write to another store.");
    }

    /** Content of {@code size} bytes at {@code path}, over the bound {@code limit}. */
    public static DocumentRefused tooLarge(String path, long size, long limit) {
        return new DocumentRefused(Kind.TOO_LARGE, path, "", "", "", size, limit, "Content of " + path + " is "
                + size + " bytes, over the limit of " + limit + " bytes. Trim it by at least " + (size - limit)
                + " bytes, or split it into several files.");
    }

    public Kind kind() {
        return kind;
    }

    public String path() {
        return path;
    }

    /** The document holding the path, or whose content changed; "" otherwise. */
    public String id() {
        return id;
    }

    public String want() {
        return want;
    }

    /** The digest held ({@link Kind#CHANGED}), or the colliding document's path ({@link Kind#PATH_TAKEN}, if known). */
    public String have() {
        return have;
    }

    public long size() {
        return size;
    }

    public long limit() {
        return limit;
    }
}
