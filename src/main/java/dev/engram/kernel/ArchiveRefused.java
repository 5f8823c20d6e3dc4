package dev.engram.kernel;

import java.util.Objects;

/**
 * A store's archive (an import's body) that Engram will not read: which {@code member} of it (its path in the tar,
 * "" for the archive as a whole), which {@code rule} it breaks, and, for a limit, the {@code limit} and the
 * {@code size} found (both -1 when no number applies). Nothing of an archive refused is written.
 */
public final class ArchiveRefused extends EngramException {

    /** What is wrong with the archive, which decides the status. */
    public enum Kind {
        /** Not a gzip'd tar, or cut short: 400. */
        MALFORMED,
        /** A member that could reach outside the store or be read two ways (links, {@code ..}, duplicates): 422. */
        UNSAFE,
        /** A member whose content breaks the format (frontmatter, a journal line, a name): 422. */
        INVALID,
        /** Over one of the import's limits: 413. */
        TOO_LARGE
    }

    private final Kind kind;
    private final String member;
    private final String rule;
    private final long limit;
    private final long size;

    private ArchiveRefused(Kind kind, String member, String rule, long limit, long size, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.member = Objects.requireNonNull(member, "member");
        this.rule = Objects.requireNonNull(rule, "rule");
        this.limit = limit;
        this.size = size;
    }

    public static ArchiveRefused malformed(String member, String rule, String message) {
        return new ArchiveRefused(Kind.MALFORMED, member, rule, -1, -1, message);
    }

    public static ArchiveRefused unsafe(String member, String rule, String message) {
        return new ArchiveRefused(Kind.UNSAFE, member, rule, -1, -1, message);
    }

    public static ArchiveRefused invalid(String member, String rule, String message) {
        return new ArchiveRefused(Kind.INVALID, member, rule, -1, -1, message);
    }

    public static ArchiveRefused tooLarge(String member, String rule, long limit, long size, String message) {
        return new ArchiveRefused(Kind.TOO_LARGE, member, rule, limit, size, message);
    }

    public Kind kind() {
        return kind;
    }

    /** The member's path in the archive, or "" for the archive as a whole. */
    public String member() {
        return member;
    }

    /** The rule broken, a stable kebab-case word such as {@code path-escapes} or {@code member-count}. */
    public String rule() {
        return rule;
    }

    /** The limit exceeded, or -1. */
    public long limit() {
        return limit;
    }

    /** What was found against the limit, or -1. */
    public long size() {
        return size;
    }
}
