package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Which key created which store, for the quota of stores per key (migration V7, {@code engram_claim_store}). */
@ApplicationScoped
public class PgStoreCreators {

    @Inject
    SessionCalls calls;

    /**
     * Claims {@code store} for {@code creator} unless it already created {@code max} stores; true when the store is
     * its to write now (claimed, claimed before, or existing by now).
     */
    public boolean claim(String store, String creator, int max) {
        return calls.value("select engram_claim_store(:store, :creator, :max)", Boolean.class,
                args("store", store, "creator", creator, "max", max));
    }
}
