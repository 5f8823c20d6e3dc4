package dev.engram.contexts;

import dev.engram.contexts.ContextStore.Edit;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.contexts.tokens.TokenCounter;
import java.util.Map;
import java.util.function.Consumer;

/** The edits the store tests run through a {@link ContextStore}, as the use cases would, with a plain record. */
public final class ContextEdits {

    private ContextEdits() {
    }

    /** Creates (or replaces) the context with {@code config}, and no steps. */
    public static Edit<Void> configure(ContextConfig config) {
        Context c = Context.of(config, null);
        return (current, cache) -> new Edited<>(new Held(c.config(), c.state()), "context.configured", Map.of(),
                null);
    }

    /** Runs {@code change} on the stored context and keeps what it made, as a record of {@code kind}. */
    public static Edit<Context> edit(String kind, Consumer<Context> change) {
        return (current, cache) -> {
            Context c = open(current.orElseThrow());
            change.accept(c);
            return new Edited<>(new Held(c.config(), c.state()), kind, Map.of(), c);
        };
    }

    /** The context {@code held} keeps, restored with its own counter and strategy. */
    public static Context open(Held held) {
        TokenCounter counter = TokenCounter.named(held.config().tokenCounter());
        return Context.restore(held.config(), counter, CompactionStrategy.of(held.config().strategy(), null, counter),
                held.state());
    }
}
