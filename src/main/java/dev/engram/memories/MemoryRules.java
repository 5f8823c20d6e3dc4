package dev.engram.memories;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The one check every store runs on a memory before it saves it. Where the reference stores nonsense silently,
 * Engram refuses it with a message that says what to send: an importance or confidence outside 0 to 1, a type or
 * source outside their lists, an end of validity before its start, a creation time more than a day ahead, and sets or
 * texts beyond their bounds.
 */
public final class MemoryRules {

    /** The most UTF-8 bytes of a memory's content. */
    public static final int MAX_CONTENT_BYTES = 16 * 1024;
    /** The most tags, keywords or evidence ids of a memory. */
    public static final int MAX_SET_SIZE = 64;
    /** The most characters of one tag, keyword or evidence id. */
    public static final int MAX_SET_ITEM = 200;
    /** The most characters of a memory id. */
    public static final int MAX_ID = 128;
    /** How far ahead of now a creation or validity time may lie (clocks differ). */
    public static final Duration FUTURE_SLACK = Duration.ofDays(1);

    /** The most memories one batch save takes. */
    public static final int MAX_BATCH = 100;

    /** The most characters of a short text a change carries beside a memory ({@link #shortText}). */
    public static final int MAX_SHORT_TEXT = 1000;

    private MemoryRules() {
    }

    /**
     * Refuses a batch ({@link Invalid}) unless a store may save every memory of it at {@code now}, each as
     * {@link Memory#saved} fills it: 1 to {@link #MAX_BATCH} memories, each passing {@link #check}; a refusal names
     * the memory by its place, {@code memories.3.content}. Answers the memories as filled, in order.
     */
    public static List<Memory> checkBatch(List<Memory> batch, Instant now) {
        if (batch == null || batch.isEmpty()) {
            throw new Invalid("batch-empty", "memories", "The batch holds no memories; send \"memories\": [{...}, "
                    + "...], 1 to " + MAX_BATCH + " of them.");
        }
        if (batch.size() > MAX_BATCH) {
            throw new Invalid("batch-size", "memories", "The batch holds " + batch.size() + " memories; one batch "
                    + "holds at most " + MAX_BATCH + ". Send the rest in further batches.");
        }
        List<Memory> filled = new java.util.ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Memory m = batch.get(i);
            if (m == null) {
                throw new Invalid("member-type", "memories." + i, "Member memories." + i + " must be an object, a "
                        + "memory to save.");
            }
            Memory saved = m.saved(now);
            try {
                check(saved, now);
            } catch (Invalid e) {
                String field = "memories." + i + (e.field().isEmpty() ? "" : "." + e.field());
                throw new Invalid(e.rule(), field, "Memory " + i + " of the batch (nothing was saved): "
                        + e.getMessage());
            }
            filled.add(saved);
        }
        return filled;
    }

    /** Refuses {@code m} ({@link Invalid}) unless a store may save it at {@code now}. */
    public static void check(Memory m, Instant now) {
        checkId(m.id(), "id");
        Bank.parse(m.bank().bankId());
        if (m.content().strip().isEmpty()) {
            throw new Invalid("content-empty", "content", "The memory has no content; send the fact itself as text.");
        }
        int size = m.content().getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_CONTENT_BYTES) {
            throw new Invalid("content-size", "content", "The content is " + size + " bytes; a memory holds at most "
                    + MAX_CONTENT_BYTES + ". Save one fact per memory, and split a longer text into several.");
        }
        storable(m.content(), "content");
        storable(m.archiveReason(), "archive_reason");
        for (Revision r : m.revisions()) {
            storable(r.by(), "revisions");
            storable(r.summary(), "revisions");
        }
        oneOf(m.type(), Memory.TYPES, "type");
        oneOf(m.source(), Memory.SOURCES, "source");
        unit(m.importance(), "importance");
        unit(m.confidence(), "confidence");
        set(m.tags(), "tags");
        set(m.keywords(), "keywords");
        set(m.evidence(), "evidence");
        if (m.createdAt() != null && m.createdAt().isAfter(now.plus(FUTURE_SLACK))) {
            throw new Invalid("time-ahead", "created_at", "created_at lies more than a day ahead (" + m.createdAt()
                    + "); send when the memory was made, in UTC, or leave it out for now.");
        }
        if (m.validTo() != null && m.validFrom() != null && m.validTo().isBefore(m.validFrom())) {
            throw new Invalid("validity-order", "valid_to", "valid_to (" + m.validTo() + ") is before valid_from ("
                    + m.validFrom() + "); a memory cannot stop holding before it starts.");
        }
        if (!m.supersededBy().isEmpty()) {
            checkId(m.supersededBy(), "superseded_by");
        }
    }

    /** Refuses an id that is not 1 to {@link #MAX_ID} visible ASCII characters other than {@code / ? # % ; \}. */
    public static void checkId(String id, String field) {
        boolean ok = id != null && !id.isEmpty() && id.length() <= MAX_ID
                && id.chars().allMatch(c -> c > 0x20 && c < 0x7f && "/?#%;\\".indexOf(c) < 0);
        if (!ok && !(field.equals("id") && id != null && id.isEmpty())) {
            throw new Invalid("id-format", field, field + " must be 1 to " + MAX_ID + " visible ASCII characters "
                    + "without '/', '?', '#', '%', ';' or '\\', such as a UUID; leave id out to have one made.");
        }
    }

    /** The refusal of superseding {@code id} by {@code by}, which names no memory of the store. */
    public static Invalid supersededByNothing(String id, String by) {
        return new Invalid("superseded-by-unknown", "by", "There is no memory " + by + " in this store to supersede "
                + id + "; save the new memory first, then supersede the old one by its id.");
    }

    /** The most characters of a context slot's text, of a mental model's content, and of a bank's mission. */
    public static final int MAX_TEXT = 64 * 1024;

    /** Refuses a slot name that is not 1 to 64 letters, digits, '_' or '-' (SOUL, AGENTS, my-notes). */
    public static void checkSlot(String slot) {
        if (slot == null || !slot.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new Invalid("slot-format", "slot", "A slot is named by 1 to 64 letters, digits, '_' or '-', such as "
                    + "SOUL, AGENTS, TOOLS, MEMORY or HEARTBEAT.");
        }
    }

    /** Refuses a text over {@link #MAX_TEXT} characters, or one PostgreSQL cannot keep. */
    public static void checkText(String text, String field) {
        if (text != null && text.length() > MAX_TEXT) {
            throw new Invalid("text-size", field, field + " takes at most " + MAX_TEXT + " characters.");
        }
        if (text != null) {
            storable(text, field);
        }
    }

    /** Refuses text holding NUL or an unpaired surrogate (not Unicode text: PostgreSQL cannot keep either). */
    /**
     * A short text a change carries beside a memory (an archive's reason, a revision's author and summary): "" for
     * none; {@link Invalid} over {@value #MAX_SHORT_TEXT} characters or when PostgreSQL could not store it.
     */
    public static String shortText(String value, String field) {
        String v = value == null ? "" : value;
        if (v.length() > MAX_SHORT_TEXT) {
            throw new Invalid("text-size", field, field + " takes at most " + MAX_SHORT_TEXT + " characters.");
        }
        storable(v, field);
        return v;
    }

    public static void storable(String text, String field) {
        int at = Utf8.firstUnstorable(text);
        if (at >= 0) {
            throw new Invalid("text-encoding", field, field + " holds " + (text.charAt(at) == 0 ? "a NUL character"
                    : "an unpaired surrogate") + " at character " + at + ", which cannot be stored; send well-formed "
                    + "Unicode text without NUL.");
        }
    }

    /** Refuses settings whose texts are too long or whose dispositions lie outside 0 to 10. */
    public static void check(BankSettings s) {
        checkText(s.mission(), "mission");
        if (s.directives().size() > MAX_SET_SIZE) {
            throw new Invalid("set-size", "directives", "At most " + MAX_SET_SIZE + " directives.");
        }
        s.directives().forEach(d -> checkText(d, "directives"));
        for (int d : new int[] {s.skepticism(), s.literalism(), s.empathy()}) {
            if (d < 0 || d > BankSettings.MAX_DISPOSITION) {
                throw new Invalid("number-range", "skepticism", "skepticism, literalism and empathy take 0 to "
                        + BankSettings.MAX_DISPOSITION + ", not " + d + ".");
            }
        }
    }

    /** Refuses a mental model without an id or content, or with texts too long. */
    public static void check(MentalModel m) {
        if (m.id().isEmpty()) {
            throw new Invalid("id-missing", "id", "A mental model needs an id of your choosing; Engram makes none.");
        }
        checkId(m.id(), "id");
        if (m.content().strip().isEmpty()) {
            throw new Invalid("content-empty", "content", "The mental model has no content.");
        }
        checkText(m.content(), "content");
        checkText(m.name(), "name");
        checkText(m.description(), "description");
    }

    /** Refuses a type that is not one of {@link Memory#TYPES}. */
    public static void checkType(String type) {
        oneOf(type == null ? "" : type, Memory.TYPES, "type");
        if (type == null || type.isEmpty()) {
            throw new Invalid("type-unknown", "type", "Name a type: one of " + String.join(", ", Memory.TYPES) + ".");
        }
    }

    private static void oneOf(String value, List<String> allowed, String field) {
        if (!value.isEmpty() && !allowed.contains(value)) {
            throw new Invalid(field + "-unknown", field, "\"" + value.replaceAll("[^\\x20-\\x7e]", "?") + "\" is not a "
                    + field + "; use one of " + String.join(", ", allowed) + ".");
        }
    }

    private static void unit(double value, String field) {
        if (!(value >= 0 && value <= 1)) {
            throw new Invalid("number-range", field, field + " must be from 0 to 1, not " + value + " (0 for "
                    + "importance means the default, " + Memory.DEFAULT_IMPORTANCE + ").");
        }
    }

    private static void set(List<String> values, String field) {
        if (values.size() > MAX_SET_SIZE) {
            throw new Invalid("set-size", field, field + " has " + values.size() + " items; at most "
                    + MAX_SET_SIZE + ".");
        }
        for (String v : values) {
            if (v.length() > MAX_SET_ITEM) {
                throw new Invalid("set-item", field, "An item of " + field + " is over " + MAX_SET_ITEM
                        + " characters; keep each short.");
            }
            storable(v, field);
        }
    }
}
