package dev.engram.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.memory.Change;
import dev.engram.memory.Erasure;
import java.time.Instant;

/**
 * A journal record as JSON, member for member the reference library's {@code journal.jsonl} line, with three members
 * of Engram's own that only erasure sets: {@code kind} ("erasure" on an erasure record), {@code erased} (on a record
 * whose content was erased, the erasure record's seq) and {@code erasure} (who erased, and why).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ChangeJson(long seq, String kind, EntryJson entry, String prev, String replaced, String session,
        String source, Instant at, Long erased, ErasureJson erasure) {

    /** The {@code kind} of an erasure record. */
    static final String ERASURE = "erasure";

    /** Who erased and why; both always present, "" when unknown or not given. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ErasureJson(String by, String reason) {

        static ErasureJson of(Erasure e) {
            return new ErasureJson(e.by(), e.reason());
        }
    }

    public static ChangeJson of(Change c) {
        return new ChangeJson(c.seq(), c.isErasure() ? ERASURE : null, EntryJson.of(c.entry()), c.prev(),
                c.replaced(), c.session(), c.source(), c.at(), c.erased() == 0 ? null : c.erased(),
                c.erasure().map(ErasureJson::of).orElse(null));
    }
}
