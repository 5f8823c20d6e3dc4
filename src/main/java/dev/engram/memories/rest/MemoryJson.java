package dev.engram.memories.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.engram.kernel.Invalid;
import dev.engram.memories.Bank;
import dev.engram.memories.Memory;
import dev.engram.memories.Revision;
import java.time.Instant;
import java.util.List;

/**
 * A memory as the API answers it, and as the journal records it (the store writes the same members; a test holds the
 * two equal). Times are RFC 3339 in UTC; absent ones are null.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record MemoryJson(String id, BankJson bank, String bankId, String type, String content, double importance,
        double confidence, List<String> tags, List<String> keywords, List<String> evidence, String source,
        Instant validFrom, Instant validTo, String supersededBy, boolean conflicting, boolean archived,
        Instant archivedAt, String archiveReason, long accessCount, Instant lastAccessed, Instant createdAt,
        Instant updatedAt, List<RevisionJson> revisions) {

    /**
     * A bank as its scope: {@code {"type": "user", "id": "alice"}}; read from a body in that form or as its bank id
     * {@code "user:alice"} ({@link BankReader}).
     */
    @JsonDeserialize(using = BankReader.class)
    public record BankJson(String type, String id) {

        public Bank toBank() {
            return new Bank(type, id);
        }
    }

    /** One line of a memory's history. */
    public record RevisionJson(Instant at, String by, String summary) {
    }

    static MemoryJson of(Memory m) {
        return new MemoryJson(m.id(), new BankJson(m.bank().type(), m.bank().id()), m.bank().bankId(), m.type(),
                m.content(), m.importance(), m.confidence(), m.tags(), m.keywords(), m.evidence(), m.source(),
                m.validFrom(), m.validTo(), m.supersededBy(), m.conflicting(), m.archived(), m.archivedAt(),
                m.archiveReason(), m.accessCount(), m.lastAccessed(), m.createdAt(), m.updatedAt(),
                m.revisions().stream().map(r -> new RevisionJson(r.at(), r.by(), r.summary())).toList());
    }

    /** A memory found by a search, with its score and, when asked, how the score was made. */
    public record ScoredJson(MemoryJson memory, double score,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
            dev.engram.memories.rank.Explain explain) {
    }

    /** {@code POST .../memories} and {@code PUT .../memories/{id}}: a memory to save; absent members take defaults. */
    public record Save(String id, BankJson bank, String type, String content, Double importance, Double confidence,
            List<String> tags, List<String> keywords, List<String> evidence, String source, Instant createdAt,
            Instant validFrom, Instant validTo, String supersededBy, Boolean conflicting, Boolean archived,
            String archiveReason, List<RevisionJson> revisions) {

        Memory toMemory(String pathId) {
            boolean isArchived = archived != null && archived;
            return new Memory(pathId != null ? pathId : id, bank == null ? Bank.GLOBAL : bank.toBank(), type, content,
                    importance == null ? 0 : importance, tags, keywords, source, confidence == null ? 0 : confidence,
                    evidence, validFrom, validTo, supersededBy, conflicting != null && conflicting, isArchived,
                    null, archiveReason, 0, null, createdAt, null, revisions == null ? List.of()
                            : revisions.stream().map(Save::revision).toList());
        }

        private static Revision revision(RevisionJson r) {
            if (r == null || r.at() == null) {
                throw new Invalid("revision-at", "revisions", "Each revision needs \"at\", the time it was made "
                        + "(RFC 3339, UTC), with \"by\" and \"summary\".");
            }
            return new Revision(r.at(), r.by(), r.summary());
        }
    }

    /** {@code POST .../memories/batch}: the memories to save, all or none. */
    public record Batch(List<Save> memories) {

        /** The drafts, in order; a null item stays null (the batch check refuses it by its place). */
        List<Memory> toMemories() {
            List<Memory> drafts = new java.util.ArrayList<>(memories == null ? 0 : memories.size());
            for (int i = 0; memories != null && i < memories.size(); i++) {
                Save s = memories.get(i);
                try {
                    drafts.add(s == null ? null : s.toMemory(null));
                } catch (Invalid e) {
                    throw new Invalid(e.rule(), "memories." + i + (e.field().isEmpty() ? "" : "." + e.field()),
                            "Memory " + i + " of the batch (nothing was saved): " + e.getMessage());
                }
            }
            return drafts;
        }
    }

    /** The memories a batch saved, in its order. */
    public record SavedJson(List<MemoryJson> memories) {
    }

    /** {@code POST .../memories/search}. */
    public record Search(String query, Integer topK, Double minScore, Boolean includeArchived, Boolean includeStale,
            String type, List<BankJson> banks, String ranking, Boolean explain) {
    }
}
