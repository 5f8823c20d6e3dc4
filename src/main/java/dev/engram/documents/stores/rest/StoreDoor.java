package dev.engram.documents.stores.rest;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.Gate;
import dev.engram.documents.Actor;
import dev.engram.documents.rest.PathGrants;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.MemoryStores;
import dev.engram.documents.stores.StoreProfile;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.rest.Preconditions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The way into a memory store for the current caller: a store it does not reach answers exactly as one that does
 * not exist ({@link NotFound#memoryStore}), before any other check. Its memories' paths take the grants as the
 * memory tool's do ({@link PathGrants}): a path under {@code /<scope>/} is the scope's, any other every scope's.
 */
@ApplicationScoped
public class StoreDoor {

    @Inject
    Gate gate;

    @Inject
    MemoryStores stores;

    /** A memory store the caller reaches: its Engram store, what the caller may do there, and its profile. */
    public static final class Reached {

        private final String store;
        private final StoreAccess access;
        private final StoreProfile profile;

        Reached(String store, StoreAccess access, StoreProfile profile) {
            this.store = store;
            this.access = access;
            this.profile = profile;
        }

        /** The Engram store. */
        public String store() {
            return store;
        }

        public StoreAccess access() {
            return access;
        }

        public StoreProfile profile() {
            return profile;
        }

        /** Refuses ({@code Denied}) unless the caller reads {@code path}. */
        public void checkReads(String path) {
            Scope scope = PathGrants.scopeOf(path);
            if (scope == null) {
                access.checkReadsEvery();
            } else {
                access.checkRead(scope);
            }
        }

        /** Refuses ({@code Denied}) unless the caller writes {@code path}. */
        public void checkWrites(String path) {
            Scope scope = PathGrants.scopeOf(path);
            if (scope == null) {
                access.checkWritesEvery();
            } else {
                access.checkWrite(scope);
            }
        }

        public boolean reads(String path) {
            return PathGrants.of(access).reads(path);
        }
    }

    /** Memory store {@code id}, if the caller reaches it and it exists; else {@link NotFound#memoryStore}. */
    public Reached open(String id) {
        String store = MemoryStoreIds.store(id);
        StoreAccess access = gate.in(store);
        if (!access.reaches()) {
            throw NotFound.memoryStore(id);
        }
        StoreProfile profile = stores.profile(store).orElseThrow(() -> NotFound.memoryStore(id));
        return new Reached(store, access, profile);
    }

    /** Who makes a change: the caller's key or token, or the session it named in {@code Engram-Session}. */
    public Actor actor(String sessionHeader) {
        return Actor.ofCaller(gate.caller().id(), Preconditions.session(sessionHeader));
    }

    public Gate gate() {
        return gate;
    }
}
