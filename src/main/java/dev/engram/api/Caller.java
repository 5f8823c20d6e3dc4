package dev.engram.api;

import jakarta.enterprise.context.RequestScoped;
import java.util.Objects;

/**
 * Who sends the request: the ID its idempotency keys are kept under, so that two callers' keys never meet, and the
 * name an erasure record gives as {@code by}. "" until authentication names callers.
 */
@RequestScoped
public class Caller {

    private String id = "";

    /**
     * Names the caller of this request.
     *
     * <p>TODO(auth): the bearer-token filter calls this with the authenticated API key's ID (or the token's subject),
     * and with "operator" for the operator key. Until it does, every request is the caller "".
     */
    public void identify(String id) {
        this.id = Objects.requireNonNull(id, "id");
    }

    /** The caller's ID, "" when unknown. */
    public String id() {
        return id;
    }
}
