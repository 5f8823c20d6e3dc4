package dev.engram.contexts;

/** The SPEC's scenarios on a context kept in memory: the keeper hands back the same object. */
class ScenariosTest extends ScenarioContract {

    @Override
    protected Keeper newKeeper() {
        return (context, reopen) -> context;
    }
}
