package dev.engram.memories;

import java.time.Instant;

/**
 * The spec's scenarios (SPEC §8) and Engram's refusals, over every store of memories: saves
 * ({@link RecallSaveContract}), searches ({@link RecallSearchContract}), a bank's own records
 * ({@link RecallBankContract}), reflection ({@link RecallReflectionContract}) and the pages a console reads
 * ({@link RecallPagesContract}). A subclass gives a new, empty
 * store whose clock is {@link #clock}.
 */
abstract class RecallContract implements RecallSaveContract, RecallSearchContract, RecallBankContract,
        RecallReflectionContract, RecallPagesContract {

    final TestClock clock = new TestClock(Instant.parse("2026-06-17T09:30:00Z"));

    @Override
    public TestClock clock() {
        return clock;
    }
}
