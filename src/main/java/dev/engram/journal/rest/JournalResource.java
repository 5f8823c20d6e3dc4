package dev.engram.journal.rest;

import dev.engram.entries.rest.ChangeJson;
import dev.engram.rest.JsonSetup;
import dev.engram.rest.Params;
import dev.engram.entries.rest.Replies;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The journal after a cursor: a JSON page, NDJSON (one record a line, to the end), or server-sent events that
 * follow new records live, each event's id its seq, resuming after {@code Last-Event-ID}.
 */
@Path("/v1/stores/{store}/journal")
public class JournalResource {

    public static final String NDJSON = "application/x-ndjson";
    private static final int NDJSON_PAGE = 500;

    @Inject
    Stores stores;

    @Inject
    EngramConfig config;

    @Inject
    JsonSetup rest;

    @Inject
    JournalFollowers followers;

    @Inject
    Gate gate;

    @PathParam("store")
    String storeId;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Replies.JournalPage page(@QueryParam("after") String after, @QueryParam("limit") String limit) {
        gate.in(Params.store(storeId)).checkReadsEvery();
        long cursor = Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        int n = (int) Params.number(limit, "limit", 1, config.journal().maxLimit(), config.journal().defaultLimit());
        Paged<JournalRecord> paged = stores.store(Params.store(storeId))
                .journalPage(cursor, n, config.limits().pageBytes());
        List<JournalRecord> page = paged.items();
        if (page.isEmpty()) {
            requireStore();
        }
        long next = page.isEmpty() ? cursor : page.get(page.size() - 1).seq();
        return new Replies.JournalPage(page.stream().map(ChangeJson::of).toList(), next, paged.more());
    }

    /** Every record after the cursor, or the first {@code limit} of them, one JSON object a line. */
    @GET
    @Produces(NDJSON)
    public StreamingOutput lines(@QueryParam("after") String after, @QueryParam("limit") String limit) {
        gate.in(Params.store(storeId)).checkReadsEvery();
        long cursor = Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        long max = Params.number(limit, "limit", 1, Long.MAX_VALUE, Long.MAX_VALUE);
        requireStore();
        Store store = stores.store(storeId);
        long pageBytes = config.limits().pageBytes();
        return out -> {
            long seq = cursor;
            long left = max;
            while (left > 0) {
                Paged<JournalRecord> page = store.journalPage(seq, (int) Math.min(NDJSON_PAGE, left), pageBytes);
                for (JournalRecord c : page.items()) {
                    write(out, c);
                    seq = c.seq();
                }
                left -= page.items().size();
                if (!page.more()) {
                    break;
                }
            }
        };
    }

    /** Follows the journal live from the cursor: {@code Last-Event-ID} when resuming, else {@code after}. */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void follow(@QueryParam("after") String after, @HeaderParam("Last-Event-ID") String lastEventId,
            @Context SseEventSink sink, @Context Sse sse) {
        gate.in(Params.store(storeId)).checkReadsEvery();
        long cursor = lastEventId != null
                ? Params.number(lastEventId, "Last-Event-ID", 0, Long.MAX_VALUE, 0)
                : Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        requireStore();
        followers.follow(storeId, cursor, sink, sse, gate.caller(), gate.stillReadsEvery(storeId));
    }

    /** A read that found nothing tells an empty journal from a store that does not exist. */
    private void requireStore() {
        if (!stores.exists(Params.store(storeId))) {
            throw NotFound.store(storeId);
        }
    }

    private void write(OutputStream out, JournalRecord c) throws java.io.IOException {
        out.write(rest.mapper().writeValueAsString(ChangeJson.of(c)).getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }
}
