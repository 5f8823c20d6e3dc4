package dev.engram.contexts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract of contexts kept in memory, and what only it shows: the journal it keeps. */
class InMemoryContextsTest extends ContextStoreContract {

    private final InMemoryContexts kept = new InMemoryContexts();

    @Override
    protected ContextStore contexts() {
        return kept;
    }

    @Test
    void everyLandedChangeIsARecordAndARefusedOrUnchangedOneIsNone() {
        Context c = Context.of(ContextConfig.defaults(), null);
        kept.change(store, "c", (current, cache) -> new ContextStore.Edited<>(
                new ContextStore.Held(c.config(), c.state()), "context.configured", Map.of("config", "x"), null));
        kept.change(store, "c", (current, cache) -> ContextStore.Edited.unchanged(null));
        try {
            kept.change(store, "c", (current, cache) -> new ContextStore.Edited<>(current.orElseThrow(),
                    "context.plan_set", Map.of("text", "a\0b"), null));
        } catch (dev.engram.kernel.Invalid expected) {
            // refused
        }
        kept.change(store, "c", (current, cache) -> new ContextStore.Edited<>(null, "context.deleted", Map.of(),
                null));
        assertEquals(List.of(List.of(1L, "context.configured", Map.of("id", "c", "config", "x")),
                List.of(2L, "context.deleted", Map.of("id", "c"))), kept.journal(store).stream()
                .map(j -> List.of(j.seq(), j.kind(), j.record())).toList());
    }
}
