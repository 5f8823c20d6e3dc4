package dev.engram.console.journal;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Gate;
import dev.engram.entries.Stores;
import dev.engram.journal.rest.JournalFollowers;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.NotFound;
import dev.engram.rest.Params;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;

/**
 * The timeline's live stream: the store's new records as server-sent events, each a {@value #EVENT} event whose data
 * is the row the timeline page renders for it (escaped as the page escapes it, on one line) and whose id is its seq.
 * It opens with the session's cookie, so the browser's EventSource can follow it, and takes the API's follower
 * machinery and limits ({@link JournalFollowers}); the caller's read on every scope is asked again before each page,
 * and a revoked key or a closed session ends the stream.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/journal/live")
public class JournalLive {

    /** The name of each record's event, which the console's script listens for. */
    static final String EVENT = "record";

    @Inject
    Stores stores;

    @Inject
    Gate gate;

    @Inject
    JournalFollowers followers;

    /** Follows the journal after {@code Last-Event-ID} when the browser resumes, else after {@code after}. */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void follow(@PathParam("store") String storeId, @QueryParam("after") String after,
            @HeaderParam("Last-Event-ID") String lastEventId, @Context SseEventSink sink, @Context Sse sse) {
        String store = Params.store(storeId);
        gate.in(store).checkReadsEvery();
        long cursor = lastEventId != null && !lastEventId.isEmpty()
                ? Params.number(lastEventId, "Last-Event-ID", 0, Long.MAX_VALUE, 0)
                : Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        if (!stores.exists(store)) {
            throw NotFound.store(store);
        }
        followers.follow(store, cursor, sink, sse, gate.caller(), gate.stillReadsEvery(store), new Rows(store));
    }

    /** Each record as its row of the timeline, on one line. */
    private final class Rows implements JournalFollowers.Events {

        private final String store;

        Rows(String store) {
            this.store = store;
        }

        @Override
        public String name() {
            return EVENT;
        }

        @Override
        public List<String> data(List<JournalRecord> page) {
            return RecordRows.of(stores.store(store), page, true).stream()
                    .map(r -> oneLine(JournalTemplates.row(store, r).render())).toList();
        }
    }

    /**
     * {@code html} on one line, as an event's data must be: each line break a character reference, which reads as
     * the same character in text and in attribute values (the row's template breaks no line inside a tag).
     */
    static String oneLine(String html) {
        return html.strip().replace("\r", "&#13;").replace("\n", "&#10;");
    }
}
