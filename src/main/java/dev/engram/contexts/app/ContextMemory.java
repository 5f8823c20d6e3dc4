package dev.engram.contexts.app;

import dev.engram.rest.Preconditions;
import dev.engram.access.rest.Gate;
import dev.engram.contexts.Context;
import dev.engram.contexts.ContextConfig;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.KeptFew;
import dev.engram.kernel.Scope;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.entries.render.RenderCache;
import dev.engram.entries.render.RenderOptions;
import dev.engram.entries.render.Rendered;
import dev.engram.entries.render.SessionManifests;
import dev.engram.contexts.ContextStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Working memory meets long-term memory: a context whose configuration names scopes of its store shows their
 * entries, rendered exactly as {@code GET .../render} renders them, as a system message after its system prompt's
 * parts, and its id is the session whose manifest log a prompt records (as a session render does), so that memory
 * tool calls made with that session are anchored on what the model was shown. The block is rendered afresh for every
 * prompt and every fill, with the caller's grant checked each time; a change renders it before its transaction, so
 * that no change holds a second connection while it holds the store's lock.
 */
@ApplicationScoped
public class ContextMemory {

    @Inject
    Stores stores;

    @Inject
    RenderCache renders;

    @Inject
    SessionManifests sessions;

    @Inject
    ContextStore contexts;

    @Inject
    EngramConfig config;

    @Inject
    Gate gate;

    /** The blocks one request of context {@code contextId} of {@code store} shows; nothing is read yet. */
    public Blocks blocks(String store, String contextId) {
        return new Blocks(store, contextId);
    }

    /**
     * The blocks one change of context {@code contextId} of {@code store} shows, with the block of its stored
     * settings rendered now, before the change's transaction.
     */
    public Blocks blocksForChange(String store, String contextId) {
        Blocks blocks = new Blocks(store, contextId);
        blocks.prepare(contexts.memory(store, contextId));
        return blocks;
    }

    /**
     * The blocks one append to context {@code contextId} of {@code store} shows, prepared for the settings this
     * replica last saw the context show, without reading them: an append is the call an agent makes at every step,
     * and its settings change rarely. When its transaction meets other settings, the show refuses the change with
     * {@link SettingsUnprepared} before anything is written, so that the append is made again once the block of
     * those settings is rendered ({@link Blocks#prepareAgain}); a context that shows no memory is never refused.
     */
    public Blocks blocksForAppend(String store, String contextId) {
        Blocks blocks = new Blocks(store, contextId);
        blocks.optimistic = true;
        ContextConfig.Memory seen = lastShown.get(key(store, contextId));
        blocks.prepare(seen == null ? ContextConfig.Memory.NONE : seen);
        return blocks;
    }

    /** The settings each context that shows memory showed last on this replica, by store and id; a bounded few. */
    private final KeptFew<String, ContextConfig.Memory> lastShown = new KeptFew<>(MAX_SETTINGS_KEPT);

    /** How many contexts' settings {@link #lastShown} keeps before it starts again. */
    static final int MAX_SETTINGS_KEPT = 10_000;

    private void remember(String store, String contextId, ContextConfig.Memory memory) {
        String key = key(store, contextId);
        if (!memory.renders()) {
            lastShown.remove(key);
            return;
        }
        lastShown.put(key, memory);
    }

    private static String key(String store, String contextId) {
        return store + '\u0000' + contextId;
    }

    /**
     * An append's transaction met memory settings its block was not prepared for: thrown by {@link Blocks#show}
     * inside it, so the transaction rolls back with nothing written, and the append is made again after
     * {@link Blocks#prepareAgain}. Carries no stack trace: it is a signal, not a failure.
     */
    public static final class SettingsUnprepared extends RuntimeException {

        private final transient ContextConfig.Memory memory;

        SettingsUnprepared(ContextConfig.Memory memory) {
            super("the memory settings changed since this replica last saw them", null, false, false);
            this.memory = memory;
        }
    }

    /** The block of {@code memory} in {@code store}, for the current caller, who must read each of its scopes. */
    private Rendered render(String store, ContextConfig.Memory memory) {
        List<Scope> scopes = memory.scopes().stream().map(Scope::new).toList();
        gate.in(store).narrowReads(scopes);
        Map<Scope, Integer> caps = new HashMap<>();
        memory.scopeMaxBytes().forEach((scope, cap) -> caps.put(new Scope(scope), cap));
        return renders.render(stores.store(store), scopes, new RenderOptions(memory.maxTotalBytes(), caps))
                .rendered();
    }

    /**
     * What one request shows of its context's memory: the block of the settings it prepared (rendered when
     * prepared; a refusal is kept and thrown only where a block is shown, so a change that shows none, such as a
     * deletion, is not refused for it), and the manifest of the last block shown.
     */
    public final class Blocks {

        private final String store;
        private final String contextId;
        private ContextConfig.Memory prepared;
        private Rendered rendered;
        private RuntimeException refused;
        private Rendered shown;
        /** Whether a show that meets settings not prepared refuses the change rather than rendering them. */
        private boolean optimistic;

        private Blocks(String store, String contextId) {
            this.store = store;
            this.contextId = contextId;
        }

        /**
         * Before a configuration that shows {@code memory}: refuses what the context may not show, before anything
         * is written (an id that is not a session id, a bound or cap over the render's ceiling, a scope the caller
         * may not read, a bound the block cannot fit in), and prepares the block for the change.
         */
        public void configure(ContextConfig.Memory memory) {
            if (memory.renders()) {
                checkSessionAndCeiling(memory);
            }
            prepare(memory);
            if (refused != null) {
                throw refused;
            }
        }

        private void checkSessionAndCeiling(ContextConfig.Memory memory) {
            try {
                Preconditions.session(contextId);
            } catch (Invalid e) {
                throw new Invalid("context-id-session", "memory", "A context that shows a memory block is the "
                        + "session its prompts are recorded for, so its id must be a session id: 1 to "
                        + Preconditions.MAX_SESSION_LENGTH + " visible ASCII characters with no spaces.");
            }
            int ceiling = config.render().maxTotalBytesCeiling();
            if (memory.maxTotalBytes() > ceiling) {
                throw new Invalid("number-range", "memory.max_total_bytes", "memory.max_total_bytes must be at most "
                        + ceiling + " (the render's ceiling), not " + memory.maxTotalBytes() + ".");
            }
            memory.scopeMaxBytes().forEach((scope, cap) -> {
                if (cap > ceiling) {
                    throw new Invalid("number-range", "memory.scope_max_bytes", "memory.scope_max_bytes of " + scope
                            + " must be at most " + ceiling + " (the render's ceiling), not " + cap + ".");
                }
            });
        }

        /** Renders the block of {@code memory} now, to show later. */
        void prepare(ContextConfig.Memory memory) {
            prepared = memory;
            rendered = null;
            refused = null;
            if (!memory.renders()) {
                return;
            }
            try {
                rendered = render(store, memory);
            } catch (RuntimeException e) {
                refused = e;
            }
        }

        /**
         * Shows in {@code context} the block its settings render: the one prepared for them, else rendered now (a
         * read, or a change that met settings another request had just changed).
         */
        public void show(Context context) {
            ContextConfig.Memory memory = context.config().memory();
            remember(store, contextId, memory);
            if (!memory.renders()) {
                context.showMemoryBlock("");
                shown = null;
                return;
            }
            if (!memory.equals(prepared)) {
                if (optimistic) {
                    throw new SettingsUnprepared(memory);
                }
                prepare(memory);
            }
            if (refused != null) {
                throw refused;
            }
            context.showMemoryBlock(rendered.block());
            shown = rendered;
        }

        /**
         * After {@code unprepared}: renders the block of the settings the append met, now, outside its transaction,
         * and shows as any change does from then on (a change that meets other settings again renders them).
         */
        public void prepareAgain(SettingsUnprepared unprepared) {
            optimistic = false;
            prepare(unprepared.memory);
        }

        /** Once an append landed: what follows it in the request (a compaction, a prompt) shows as a change does. */
        public void landed() {
            optimistic = false;
        }

        /**
         * Records the manifest of the block last shown in the log of the session the context's id names, when it
         * moved since the session's last record; empty, writing nothing, when it did not or no block was shown.
         */
        public Optional<SessionManifests.SessionRecord> recordShown() {
            if (shown == null) {
                return Optional.empty();
            }
            return sessions.record(store, Preconditions.session(contextId), shown.manifest());
        }
    }
}
