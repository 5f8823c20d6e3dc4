package dev.engram.entries.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.entries.LostUpdate;
import dev.engram.entries.StoreInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The response bodies that are not an entry or a journal record. */
public final class Replies {

    private Replies() {
    }

    /** A store: its journal's last seq, its bound, and its live entries counted in all and by scope. */
    public record StoreJson(String id, long seq, int maxEntryBytes, int entries, Map<String, Integer> scopes,
            Instant createdAt) {

        public static StoreJson of(StoreInfo info) {
            Map<String, Integer> scopes = new TreeMap<>();
            info.entries().forEach((scope, n) -> scopes.put(scope.value(), n));
            return new StoreJson(info.id(), info.seq(), info.maxEntryBytes(), info.entryCount(), scopes,
                    info.createdAt());
        }
    }

    /**
     * Entries, from a search; {@code truncated} (only when true) when the page's byte bound ended them early,
     * {@code more} (only when true) when more hits follow them, at {@code offset} plus the entries answered.
     */
    public record Entries(List<EntryJson> entries, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean truncated,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean more) {
    }

    /** One page of a scope's entries: {@code next} is the name to list on after, null on the last page. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record EntryPage(List<EntryJson> entries, String next, boolean more) {
    }

    /** One page of the journal: {@code next} is the cursor to read on from, {@code more} whether there is more. */
    public record JournalPage(List<ChangeJson> records, long next, boolean more) {
    }

    /**
     * The last event of a live follow this replica ends as it shuts down: resume on another replica after
     * {@code lastSeq} (0 when no record was sent) once {@code retryMs} have passed.
     */
    public record Reconnect(String reason, long lastSeq, long retryMs) {
    }

    /** One lost update: the record, and the hash the journal held before it. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record LostUpdateJson(ChangeJson change, String over) {

        public static LostUpdateJson of(LostUpdate lost) {
            return new LostUpdateJson(ChangeJson.of(lost.change()), lost.over());
        }
    }

    /** A page of lost updates: {@code next} is the {@code from} of the next page, {@code more} whether one is. */
    public record LostUpdates(List<LostUpdateJson> lostUpdates, long next, boolean more) {
    }
}
