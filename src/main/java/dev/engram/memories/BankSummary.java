package dev.engram.memories;

import java.util.Objects;

/**
 * A bank as a store's list of banks shows it: its memories counted, all of them and those archived or stale (a
 * memory may be both). A bank that holds only context slots or settings counts none.
 *
 * @param bankId the bank's id ({@link Bank#bankId})
 */
public record BankSummary(String bankId, long memories, long archived, long stale) {

    public BankSummary {
        Objects.requireNonNull(bankId, "bankId");
    }
}
