package dev.engram.entries;

import dev.engram.kernel.Scope;

/**
 * The conformance suite every {@link Store} passes, after the reference library's storetest: Validation,
 * PutGetList, Bounds ({@link StoreWriteContract}), IfHash (here IfVersion, which covers meta too) and Forget
 * ({@link StorePreconditionContract}), Journal and LostUpdates ({@link StoreJournalContract}), Search
 * ({@link StoreSearchContract}), Concurrent and Persistence ({@link StoreConcurrencyContract}). A store's test
 * extends it and says how to make an empty store and how to reopen one ({@link StoreUnderTest}).
 */
public abstract class StoreContract implements StoreWriteContract, StorePreconditionContract, StoreJournalContract,
        StoreSearchContract, StoreConcurrencyContract {

    protected static final Scope USER = StoreCases.USER;
    protected static final Scope PROJECT = StoreCases.PROJECT;
}
