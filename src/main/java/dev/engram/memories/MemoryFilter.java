package dev.engram.memories;

import dev.engram.kernel.Invalid;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;

/**
 * Which of a store's memories a page lists, and in what order: one bank's most important first (then newest, then by
 * id), the order of its entrypoint; or, with no bank named, every bank's newest first (then by id). Each filter left
 * empty (or null) admits every memory.
 *
 * @param bank a bank id ({@link Bank#bankId}), "" for every bank
 * @param type a memory type ({@link Memory#TYPES}), "" for every type
 * @param tag a tag the memory carries, "" for any
 * @param archived true for archived memories only, false for those not archived, null for both
 * @param stale true for stale memories only ({@link Memory#stale}: superseded or no longer valid), false for those
 *        still valid, null for both
 */
public record MemoryFilter(String bank, String type, String tag, Boolean archived, Boolean stale) {

    /** Every memory of the store, newest first. */
    public static final MemoryFilter ALL = new MemoryFilter("", "", "", null, null);

    /** Newest first, then by id. */
    static final Comparator<Memory> NEWEST = Comparator.comparing(Memory::createdAt).reversed()
            .thenComparing(Memory::id);
    /** Most important first, then newest, then by id. */
    static final Comparator<Memory> MOST_IMPORTANT = Comparator.comparingDouble(Memory::importance).reversed()
            .thenComparing(NEWEST);

    public MemoryFilter {
        bank = bank == null ? "" : bank;
        type = type == null ? "" : type;
        tag = tag == null ? "" : tag.strip();
    }

    /** Whether the page is in a bank's order, most important first. */
    public boolean byImportance() {
        return !bank.isEmpty();
    }

    /** Whether {@code m} passes every filter. */
    public boolean admits(Memory m) {
        return (bank.isEmpty() || bank.equals(m.bank().bankId())) && (type.isEmpty() || type.equals(m.type()))
                && (tag.isEmpty() || m.tags().contains(tag)) && (archived == null || archived == m.archived())
                && (stale == null || stale == m.stale());
    }

    /** The order of the page. */
    public Comparator<Memory> order() {
        return byImportance() ? MOST_IMPORTANT : NEWEST;
    }

    /**
     * Where a page starts: just after the memory of this importance, creation time and id in the filter's order, so
     * that a page is read from an index without counting the ones before it, and a memory saved or deleted meanwhile
     * moves no other from one page to the next.
     */
    public record After(double importance, Instant createdAt, String id) {

        /** The place of {@code m}. */
        public static After of(Memory m) {
            return new After(m.importance(), m.createdAt(), m.id());
        }

        /** This place as one parameter of a link: creation time, importance and id, joined by {@code ~}. */
        public String token() {
            return createdAt + "~" + importance + "~" + id;
        }

        /** The place {@link #token} wrote; {@link Invalid} ({@code page-after}) for anything else. */
        public static After parse(String token) {
            String[] parts = token == null ? new String[0] : token.split("~", 3);
            try {
                double importance = parts.length == 3 ? Double.parseDouble(parts[1]) : Double.NaN;
                if (Double.isFinite(importance)) {
                    MemoryRules.checkId(parts[2], "after");
                    return new After(importance, Instant.parse(parts[0]), parts[2]);
                }
            } catch (NumberFormatException | DateTimeParseException | Invalid bad) {
                // refused below
            }
            throw new Invalid("page-after", "after", "after takes the place a page's \"next\" link names; follow "
                    + "that link, or leave after out to start from the first memory.");
        }

        /** Whether {@code m} comes after this place: in a bank's order when {@code byImportance}, else newest first. */
        boolean precedes(Memory m, boolean byImportance) {
            if (byImportance && Double.compare(m.importance(), importance) != 0) {
                return m.importance() < importance;
            }
            int at = m.createdAt().compareTo(createdAt);
            return at != 0 ? at < 0 : m.id().compareTo(id) > 0;
        }
    }
}
