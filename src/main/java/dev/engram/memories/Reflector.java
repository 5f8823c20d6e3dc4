package dev.engram.memories;

import java.util.List;

/**
 * What turns a bank's new facts into observations. It reads, it never writes: {@link Reflection} lands what it
 * proposes. A reflector that cannot answer throws {@link dev.engram.kernel.ReflectionFailed}.
 */
public interface Reflector {

    /** Its name, as a reflect request and the result name it: {@code llm}, {@code deterministic}. */
    String name();

    /**
     * Observations drawn from {@code facts} (active facts no active observation cites yet, oldest first), knowing
     * the bank's {@code existing} active observations, which an observation may replace.
     */
    List<Observation> consolidate(List<Memory> facts, List<Memory> existing);

    /**
     * The most facts it is given at once ({@link Integer#MAX_VALUE}: as many as the reflection sends). A reflector
     * that may cite every fact it is given in one observation gives {@link MemoryRules#MAX_SET_SIZE}, what one
     * observation can cite; the rest wait for the next reflection.
     */
    default int maxFacts() {
        return Integer.MAX_VALUE;
    }
}
