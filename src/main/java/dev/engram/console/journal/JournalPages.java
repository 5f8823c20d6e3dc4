package dev.engram.console.journal;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.ConsoleRequest;
import dev.engram.entries.JournalFilter;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * A store's journal, newest first, a page at a time ({@link Timeline}): every record (read on every scope, as the
 * API's journal takes), one scope's or one entry's (read on that scope), and the lost updates (read on every scope,
 * as the API's audit takes). Each write shows its diff, each lost update what it overwrote unseen. The newest page of
 * the whole timeline follows the journal live ({@link JournalLive}) where script runs.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/journal")
@Produces(MediaType.TEXT_HTML)
public class JournalPages {

    @Inject
    Stores stores;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /**
     * The page before {@code before} or after {@code after} (else the newest) of every record, or of {@code scope}'s,
     * or of the entry {@code scope/name}.
     */
    @GET
    public TemplateInstance timeline(@PathParam("store") String storeId, @QueryParam("scope") String scopeValue,
            @QueryParam("name") String nameValue, @QueryParam("before") String before,
            @QueryParam("after") String after) {
        String store = Params.store(storeId);
        StoreAccess access = request.caller().in(store);
        boolean scoped = scopeValue != null && !scopeValue.isBlank();
        boolean named = nameValue != null && !nameValue.isBlank();
        JournalFilter filter = JournalFilter.ALL;
        if (named && !scoped) {
            throw new Invalid("name-without-scope", "name", "An entry's history needs its scope too: give scope= "
                    + "with name=, such as ?scope=user&name=style.");
        }
        if (scoped) {
            Scope scope = Params.scope(scopeValue.strip());
            access.checkRead(scope);
            filter = named ? JournalFilter.entry(scope, Params.name(nameValue.strip())) : JournalFilter.scope(scope);
        } else {
            access.checkReadsEvery();
        }
        Timeline t = read(store, filter, before, after);
        return JournalTemplates.timeline(request.chrome(), store, TimelineView.of(store, false,
                scoped ? scopeValue.strip() : "", named ? nameValue.strip() : "", t), rows(store, t, true));
    }

    /** The store's lost updates, newest first, the page before {@code before} or after {@code after}. */
    @GET
    @Path("lost")
    public TemplateInstance lost(@PathParam("store") String storeId, @QueryParam("before") String before,
            @QueryParam("after") String after) {
        String store = Params.store(storeId);
        request.caller().in(store).checkReadsEvery();
        Timeline t = read(store, JournalFilter.LOST, before, after);
        return JournalTemplates.timeline(request.chrome(), store, TimelineView.of(store, true, "", "", t),
                rows(store, t, false));
    }

    private Timeline read(String store, JournalFilter filter, String before, String after) {
        if (before != null && !before.isEmpty() && after != null && !after.isEmpty()) {
            throw new Invalid("one-cursor", "before", "A page of the journal is read before a record or after one, "
                    + "not both: give before= or after=.");
        }
        long b = Params.number(before, "before", 1, Long.MAX_VALUE, 0);
        long a = Params.number(after, "after", 0, Long.MAX_VALUE - 1, -1);
        Timeline t = Timeline.read(stores.store(store), filter, b, a, config.console().pageSize(),
                config.limits().pageBytes());
        if (t.records().isEmpty() && !stores.exists(store)) {
            throw NotFound.store(store);
        }
        return t;
    }

    private List<RecordRow> rows(String store, Timeline t, boolean contiguous) {
        return RecordRows.of(stores.store(store), t.records(), contiguous);
    }
}
