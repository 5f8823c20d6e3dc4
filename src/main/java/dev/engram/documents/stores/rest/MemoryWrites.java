package dev.engram.documents.stores.rest;

import dev.engram.documents.Document;
import dev.engram.documents.DocumentPath;
import dev.engram.documents.Documents;
import dev.engram.documents.Written;
import dev.engram.documents.stores.rest.StoreApiJson.ContentPrecondition;
import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Sha256;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Supplier;

/** What the memory routes share about a write: its path, its precondition, and a path conflict told in full. */
@ApplicationScoped
public class MemoryWrites {

    @Inject
    Documents documents;

    /** {@code path} if a memory may have it. */
    String path(String path) {
        return DocumentPath.check(path, "path");
    }

    /** The content digest a precondition asks for, if any: {@code {"type": "content_sha256", ...}}. */
    Optional<String> expected(ContentPrecondition p) {
        if (p == null) {
            return Optional.empty();
        }
        if (!"content_sha256".equals(p.type()) || p.contentSha256() == null || p.contentSha256().isEmpty()) {
            throw new Invalid("precondition", "precondition", "A precondition is {\"type\": \"content_sha256\", "
                    + "\"content_sha256\": \"<the hex SHA-256 of the content you read>\"}.");
        }
        return Optional.of(p.contentSha256());
    }

    /** Whether {@code d} already is what an update of {@code path} and {@code content} (each when sent) asks. */
    static boolean matches(Document d, Optional<String> path, Optional<String> content) {
        return path.map(d.path()::equals).orElse(true)
                && content.map(c -> Sha256.hex(c).equals(d.sha256())).orElse(true);
    }

    /**
     * The write {@code write} in store {@code s}; a path it finds taken is refused naming the memory holding it and
     * that memory's path when the caller may read it.
     */
    Written landed(StoreDoor.Reached s, Supplier<Written> write) {
        try {
            return write.get();
        } catch (DocumentRefused e) {
            if (e.kind() != DocumentRefused.Kind.PATH_TAKEN) {
                throw e;
            }
            String holder = documents.byId(s.store(), e.id()).map(Document::path).filter(s::reads)
                    .orElse(e.path());
            throw DocumentRefused.pathTaken(e.path(), e.id(), holder);
        }
    }
}
