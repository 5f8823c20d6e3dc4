package dev.engram.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.memory.Change;
import java.time.Instant;

/** A journal record as JSON, member for member the reference library's {@code journal.jsonl} line. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ChangeJson(long seq, EntryJson entry, String prev, String replaced, String session, String source,
        Instant at) {

    public static ChangeJson of(Change c) {
        return new ChangeJson(c.seq(), EntryJson.of(c.entry()), c.prev(), c.replaced(), c.session(), c.source(),
                c.at());
    }
}
