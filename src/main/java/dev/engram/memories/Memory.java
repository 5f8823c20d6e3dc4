package dev.engram.memories;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;

/**
 * One typed memory of a bank: a fact, skill, pattern, context, preference or observation, with how much it matters
 * ({@code importance}), how sure its source is ({@code confidence}), what supports it ({@code evidence}: ids of other
 * memories or of outside sources), when it holds ({@code validFrom}, {@code validTo}) and what replaced it
 * ({@code supersededBy}). Tags, keywords and evidence are sets: trimmed, blanks dropped, sorted by code unit.
 *
 * @param accessCount how often it was used ({@code /access}); searching does not count
 * @param revisions its history, oldest first
 */
public record Memory(String id, Bank bank, String type, String content, double importance, List<String> tags,
        List<String> keywords, String source, double confidence, List<String> evidence, Instant validFrom,
        Instant validTo, String supersededBy, boolean conflicting, boolean archived, Instant archivedAt,
        String archiveReason, long accessCount, Instant lastAccessed, Instant createdAt, Instant updatedAt,
        List<Revision> revisions) {

    /** The memory types. */
    public static final List<String> TYPES = List.of("fact", "skill", "pattern", "context", "preference",
            "observation");
    /** Where a memory came from. */
    public static final List<String> SOURCES = List.of("user_input", "inferred", "consolidated");
    /** The importance a memory saved with none (0) takes. */
    public static final double DEFAULT_IMPORTANCE = 0.5;

    /** Strings in the order of their code points: UTF-8's byte order, which PostgreSQL's "C" collation sorts by. */
    static final Comparator<String> BY_CODE_POINT = (a, b) -> Arrays.compare(a.codePoints().toArray(),
            b.codePoints().toArray());

    public Memory {
        id = id == null ? "" : id;
        bank = bank == null ? Bank.GLOBAL : bank;
        type = type == null ? "" : type;
        content = content == null ? "" : content;
        tags = set(tags);
        keywords = set(keywords);
        source = source == null ? "" : source;
        evidence = set(evidence);
        supersededBy = supersededBy == null ? "" : supersededBy;
        archiveReason = archiveReason == null ? "" : archiveReason;
        revisions = revisions == null ? List.of() : List.copyOf(revisions);
    }

    /** The bytes a page's byte bound counts for this memory: its content's, in UTF-8, as stored. */
    public long bytes() {
        return dev.engram.kernel.Utf8.length(content);
    }

    /** A new memory of {@code type} in {@code bank}, as a caller would send it; {@link #saved} fills the rest. */
    public static Memory draft(Bank bank, String type, String content, double importance) {
        return new Memory("", bank, type, content, importance, List.of(), List.of(), "", 0, List.of(), null, null,
                "", false, false, null, "", 0, null, null, null, List.of());
    }

    /**
     * This memory as a save stores it at {@code now}: a random id when it has none, type {@code fact} and source
     * {@code user_input} when blank, importance 0.5 when 0, created now when unset, valid from its creation when
     * unset, archived now when archived with no time, and updated now.
     */
    public Memory saved(Instant now) {
        Instant created = createdAt == null ? now : createdAt;
        return new Memory(id.isEmpty() ? UUID.randomUUID().toString() : id, bank, type.isEmpty() ? "fact" : type,
                content, importance == 0 ? DEFAULT_IMPORTANCE : importance, tags, keywords,
                source.isEmpty() ? "user_input" : source, confidence, evidence, validFrom == null ? created : validFrom,
                validTo, supersededBy, conflicting, archived, archived && archivedAt == null ? now : archivedAt,
                archiveReason, accessCount, lastAccessed, created, now, revisions);
    }

    /** Whether it no longer holds: it has an end of validity, or a memory superseded it. Archiving is apart. */
    public boolean stale() {
        return validTo != null || !supersededBy.isEmpty();
    }

    /** Neither archived nor stale: what reflection considers, and what search and the entrypoint show by default. */
    public boolean active() {
        return !archived && !stale();
    }

    /** What a recall query is matched against: the content, then the tags, then the keywords, space-separated. */
    public String haystack() {
        return content + " " + String.join(" ", tags) + " " + String.join(" ", keywords);
    }

    /**
     * The set of {@code values}: trimmed, blanks dropped, sorted by code point, which is the byte order of UTF-8 that
     * PostgreSQL's "C" collation sorts by.
     */
    static List<String> set(Collection<String> values) {
        TreeSet<String> set = new TreeSet<>(BY_CODE_POINT);
        if (values != null) {
            for (String v : values) {
                if (v != null && !v.strip().isEmpty()) {
                    set.add(v.strip());
                }
            }
        }
        return List.copyOf(set);
    }

    /** This memory with one more line of history. */
    public Memory revised(Revision revision) {
        List<Revision> more = new ArrayList<>(revisions);
        more.add(Objects.requireNonNull(revision, "revision"));
        return withRevisions(more);
    }

    /** Superseded by {@code by} ("" for nothing named) at {@code now}: valid until now, a revision by reflect. */
    public Memory superseded(String by, Instant now) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                now, by, conflicting, archived, archivedAt, archiveReason, accessCount, lastAccessed, createdAt, now,
                revisions).revised(new Revision(now, "reflect", "superseded by " + by));
    }

    /** Archived at {@code now} for {@code reason}, with a revision by archive. */
    public Memory archive(String reason, Instant now) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                validTo, supersededBy, conflicting, true, now, reason, accessCount, lastAccessed, createdAt, now,
                revisions).revised(new Revision(now, "archive", reason));
    }

    /** Archived no more, as of {@code now}; no revision. */
    public Memory unarchive(Instant now) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                validTo, supersededBy, conflicting, false, null, "", accessCount, lastAccessed, createdAt, now,
                revisions);
    }

    /** Used once more at {@code now}; its update time stays. */
    public Memory accessed(Instant now) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                validTo, supersededBy, conflicting, archived, archivedAt, archiveReason, accessCount + 1, now,
                createdAt, updatedAt, revisions);
    }

    /** This memory saved over {@code old}: its creation and its accesses are the old one's. */
    public Memory replacing(Memory old) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                validTo, supersededBy, conflicting, archived, archivedAt, archiveReason, old.accessCount,
                old.lastAccessed, old.createdAt, updatedAt, revisions);
    }

    /** The same memory with {@code revisions}. */
    public Memory withRevisions(List<Revision> revisions) {
        return new Memory(id, bank, type, content, importance, tags, keywords, source, confidence, evidence, validFrom,
                validTo, supersededBy, conflicting, archived, archivedAt, archiveReason, accessCount, lastAccessed,
                createdAt, updatedAt, Objects.requireNonNull(revisions, "revisions"));
    }
}
