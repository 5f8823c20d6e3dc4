package dev.engram.kernel;

/** What was asked for is not live: an entry never written or forgotten, or a store never written to. */
public final class NotFound extends EngramException {

    private NotFound(String message) {
        super(message);
    }

    /** No live entry {@code scope/name}. */
    public static NotFound entry(Scope scope, String name) {
        return new NotFound("No live entry " + scope + "/" + name + ". List the scope to see what it holds; "
                + "a forgotten entry is still in the journal.");
    }

    /** Nothing to erase: the journal never held {@code scope/name}. */
    public static NotFound neverHeld(Scope scope, String name) {
        return new NotFound("The journal never held " + scope + "/" + name + ", so there is nothing to erase. "
                + "Check the scope and name against the journal.");
    }

    /** No store {@code id}. */
    public static NotFound memory(String id) {
        return new NotFound("No memory " + id + " in this store. Search or list the store's memories to find its "
                + "id; a deleted memory is gone, and a cleared store holds none.");
    }

    public static NotFound bankSettings(String bank) {
        return new NotFound("Bank " + bank + " has no settings yet; PUT them to configure it.");
    }

    public static NotFound mentalModel(String id) {
        return new NotFound("No mental model " + id + " in this store; GET .../mental-models lists them.");
    }

    public static NotFound slot(String bank, String slot) {
        return new NotFound("Bank " + bank + " has no slot " + slot + "; PUT it to set it.");
    }

    public static NotFound store(String id) {
        return new NotFound("No store " + id + ". A store is created by its first write, or by PUT /v1/stores/"
                + id + ".");
    }

    /** No context {@code id} in the store. */
    public static NotFound context(String id) {
        return new NotFound("No context " + id + " in this store. PUT /v1/stores/{store}/contexts/" + id
                + " creates it; a deleted context is gone.");
    }

    /** No cached tool result that {@code hash} names in context {@code id} (or the prefix names several). */
    public static NotFound toolResult(String id, String hash) {
        return new NotFound("No cached result found for hash: " + hash + " in context " + id + ". Use the short "
                + "hash a step carries, the full hash, or a prefix of it that names one result.");
    }

    /** No live document {@code what} (a path or an id) in the store. */
    public static NotFound document(String what) {
        return new NotFound("No document " + what + " in this store. List the store's documents to see what it "
                + "holds; a deleted document's versions are still in the journal.");
    }

    /** No memory store {@code id} that the caller reaches (another tenant's answers so too). */
    public static NotFound memoryStore(String id) {
        return new NotFound("No memory store " + id + ". GET /v1/memory_stores lists the ones this key reaches; "
                + "POST /v1/memory_stores creates one.");
    }

    /** No version {@code id} of a memory in the store. */
    public static NotFound memoryVersion(String id) {
        return new NotFound("No memory version " + id + " in this memory store; GET .../memory_versions lists "
                + "them (ids are memver_ and a number).");
    }
}
