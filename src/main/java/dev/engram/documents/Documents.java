package dev.engram.documents;

import dev.engram.kernel.IdempotencyKey;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The path-addressed documents of every store (ADR 0009). Every change is one record of the store's journal (a
 * version: created, modified, deleted) carrying who made it; a change that changes nothing appends none. Writes are
 * conditional on the content's SHA-256 where asked, and refused whole: a refused write writes nothing. Paths are
 * checked by {@link DocumentPath#check} and content by {@link DocumentText#check} before anything is written.
 */
public interface Documents {

    /** The live document at {@code path}, or empty. */
    Optional<Document> at(String store, String path);

    /** The live document {@code id}, or empty. */
    Optional<Document> byId(String store, String id);

    /**
     * Up to {@code limit} live documents under directory {@code directory} ({@code /} for all) whose paths sort after
     * {@code after} ("" from the first), by path in byte order, without their content.
     */
    List<DocumentHead> under(String store, String directory, String after, int limit);

    /**
     * Creates a document at {@code path}. Refused with {@code DocumentRefused} when the path is taken, the store
     * archived or the content over the bound, and {@code Limited} at the store's most documents.
     */
    Written create(String store, String path, String content, Actor actor);

    /**
     * Changes document {@code id}: moves it to {@code path} and sets its content (each when present), if its
     * content's SHA-256 is {@code expect} (when present). {@code NotFound} when there is no such document; a change
     * that changes nothing answers the document with seq 0.
     */
    Written update(String store, String id, Optional<String> path, Optional<String> content, Optional<String> expect,
            Actor actor);

    /** Deletes document {@code id} if its content's SHA-256 is {@code expect} (when present). */
    Written delete(String store, String id, Optional<String> expect, Actor actor);

    /**
     * Moves every document under directory {@code from} to the same place under {@code to}, in one transaction: all
     * land or none (a path under {@code to} already taken refuses the whole move). Empty when none is under it.
     */
    List<Written> move(String store, String from, String to, Actor actor);

    /** Deletes every document under directory {@code directory}, in one transaction. */
    List<Written> deleteUnder(String store, String directory, Actor actor);

    /**
     * Runs {@code call} (reads and writes of this store's documents, answering the text of its reply) at most once
     * under {@code key}: its writes and the key's reply land in one transaction, all or none, and a retry under the
     * key, even one racing the first call, answers the first reply without running {@code call}. {@code KeyReused}
     * when the key came with another request.
     */
    Kept once(String store, IdempotencyKey key, Supplier<String> call);

    /** The reply of a call under a key, and whether it is the first call's replayed. */
    record Kept(String reply, boolean replayed) {
    }
}
