package dev.engram.memories;

/** The contract over memories kept in a map. */
class InMemoryRecallTest extends RecallContract {

    @Override
    public Recall newRecall() {
        return new InMemoryRecall(clock);
    }
}
