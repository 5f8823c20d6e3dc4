package dev.engram.entries.render;

import dev.engram.kernel.Scope;
import java.util.Objects;

/**
 * One entry a block held or left out: by scope and name, with the hash and size of its content, and for an
 * omission the reason.
 *
 * @param reason {@link #OMIT_BUDGET} or {@link #OMIT_BLOCK} for an omitted entry, "" for one the block holds
 */
public record ManifestEntry(Scope scope, String name, String hash, int bytes, String reason) {

    /** Left out because its part did not fit in what was left of the bound or of its scope's cap. */
    public static final String OMIT_BUDGET = "budget";
    /** Left out because the product left the whole block out (never written by a render). */
    public static final String OMIT_BLOCK = "block";

    public ManifestEntry {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        hash = hash == null ? "" : hash;
        reason = reason == null ? "" : reason;
    }

    /** Scope and name, the key a delta matches entries by. */
    String key() {
        return scope.value() + "/" + name;
    }
}
