package dev.engram.memories;

/** The contract over memories kept in a map. */
class InMemoryRecallTest extends RecallContract {

    @Override
    Recall newRecall() {
        return new InMemoryRecall(clock);
    }
}
