package dev.engram.memories;

/**
 * How a case of {@link RecallContract} gets its store of memories: a new, empty one whose clock is {@link #clock()}.
 */
interface RecallUnderTest {

    Recall newRecall();

    /** The clock of every store {@link #newRecall()} gives, which a case moves on. */
    TestClock clock();

    /** Reflects {@code bank} now, with {@code reflector}. */
    default Reflected reflect(Recall r, Bank bank, Reflector reflector) {
        return Reflection.reflect(r, bank, reflector, 0, clock().instant());
    }
}
