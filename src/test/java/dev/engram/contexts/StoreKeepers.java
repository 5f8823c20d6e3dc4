package dev.engram.contexts;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Keepers of the SPEC's scenarios ({@link ScenarioContract}) that keep each context in a {@link ContextStore}. */
public final class StoreKeepers {

    private static final AtomicInteger CONTEXTS = new AtomicInteger();

    private StoreKeepers() {
    }

    /**
     * A keeper of one new context of {@code store} in {@code contexts}: after every change the configuration and state
     * are written through the port (one change and journal record, as a REST change makes) and read back, and the
     * next operation works on the context restored from what was read.
     */
    public static ScenarioContract.Keeper in(ContextStore contexts, String store) {
        String id = "s-" + CONTEXTS.incrementAndGet();
        return (context, reopen) -> {
            ContextStore.Held written = new ContextStore.Held(context.config(), context.state());
            contexts.change(store, id, (current, cache) -> new ContextStore.Edited<>(written, "context.kept_by_test",
                    Map.of(), null));
            ContextStore.Held read = contexts.get(store, id);
            return reopen.open(read.config(), read.state());
        };
    }
}
