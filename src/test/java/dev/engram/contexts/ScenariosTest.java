package dev.engram.contexts;

/**
 * The SPEC's scenarios on contexts kept in memory: after every change the context is kept in an
 * {@link InMemoryContexts} through the port and reopened from what it holds.
 */
class ScenariosTest extends ScenarioContract {

    private final InMemoryContexts contexts = new InMemoryContexts();

    @Override
    public Keeper newKeeper() {
        return StoreKeepers.in(contexts, "scenarios");
    }
}
