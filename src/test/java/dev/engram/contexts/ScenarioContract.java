package dev.engram.contexts;

/**
 * The reference's test scenarios (SPEC §9), with its numbers and texts, written once and run over every way a
 * context is kept: a test extends it and says how a context is kept between operations ({@link #newKeeper}). Each
 * scenario drives a {@link KeptContext}, so every operation after a change works on what the keeper kept; the
 * strategies are built from the kept configuration, and their results are read from the kept compacted prefix.
 * The scenarios are those of the prompt ({@link ScenarioPromptContract}), of compaction
 * ({@link ScenarioCompactionContract}) and of tool outputs ({@link ScenarioToolOutputContract}).
 */
public abstract class ScenarioContract implements ScenarioPromptContract, ScenarioCompactionContract,
        ScenarioToolOutputContract {

    /** Where one context lives between the operations of a scenario. */
    public interface Keeper {

        /**
         * Keeps what {@code context} holds after a change, and answers the context the next operation works on:
         * {@code context} itself, or the one {@code reopen} makes of the configuration and state kept.
         */
        Context keep(Context context, Reopen reopen);
    }

    /** Makes a context of a kept configuration and state, with the scenario's counter and summarizer. */
    @FunctionalInterface
    public interface Reopen {
        Context open(ContextConfig config, ContextState state);
    }
}
