package dev.engram.documents.tool;

import dev.engram.documents.Actor;
import dev.engram.documents.Document;
import dev.engram.documents.DocumentHead;
import dev.engram.documents.Documents;
import dev.engram.documents.tool.MemoryCommand.Create;
import dev.engram.documents.tool.MemoryCommand.Delete;
import dev.engram.documents.tool.MemoryCommand.Insert;
import dev.engram.documents.tool.MemoryCommand.Malformed;
import dev.engram.documents.tool.MemoryCommand.Rename;
import dev.engram.documents.tool.MemoryCommand.StrReplace;
import dev.engram.documents.tool.MemoryCommand.View;
import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * Claude's memory tool ({@code memory_20250818}) over a store's documents: {@code /memories} is the store's document
 * root, so {@code /memories/notes/a.md} is document {@code /notes/a.md}, and a directory is every document under its
 * path. Each command answers the documented text ({@link MemoryToolTexts}); every mistake is an error text the model
 * can act on, never a failure of the call.
 *
 * <p>Concurrent sessions never lose an edit silently: {@code str_replace} and {@code insert} read the file, apply the
 * edit and write it conditional on the content's SHA-256 they read; when another session's write came between, they
 * read the current content and apply the edit to it again (an anchor that is gone then fails out loud), as an entry's
 * patch does. {@code create} never overwrites and {@code rename} never replaces, so no command replaces content it has
 * not seen.
 */
public final class MemoryTool {

    /** The directory every path of the tool lies in. */
    public static final String ROOT = "/memories";
    /** How long an edit keeps applying itself again after concurrent writes before it gives up. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final int MAX_LISTED = 100_000;

    /** Which documents the caller may read and write, by document path. */
    public interface PathAccess {
        boolean reads(String documentPath);

        boolean writes(String documentPath);
    }

    /** What the tool answers: the text for the model, and whether it reports an error. */
    public record Answer(String text, boolean isError) {

        static Answer ok(String text) {
            return new Answer(text, false);
        }

        static Answer error(String text) {
            return new Answer(text, true);
        }
    }

    private final Documents documents;

    public MemoryTool(Documents documents) {
        this.documents = documents;
    }

    /** Runs the command {@code input} holds (the tool-use input as the model sent it) in {@code store}. */
    public Answer run(String store, Map<String, Object> input, Actor actor, PathAccess access) {
        MemoryCommand command = MemoryCommand.parse(input);
        Call call = new Call(store, actor, access);
        try {
            return call.run(command);
        } catch (ToolPath.Refused e) {
            return Answer.error(e.getMessage());
        } catch (Invalid | DocumentRefused | Limited e) {
            return Answer.error("Error: " + e.getMessage());
        }
    }

    /** One command's work in one store for one caller. */
    private final class Call {
        private final String store;
        private final Actor actor;
        private final PathAccess access;

        Call(String store, Actor actor, PathAccess access) {
            this.store = store;
            this.actor = actor;
            this.access = access;
        }

        Answer run(MemoryCommand command) {
            if (command instanceof View v) {
                return view(v);
            }
            if (command instanceof Create c) {
                return create(c);
            }
            if (command instanceof StrReplace s) {
                return strReplace(s);
            }
            if (command instanceof Insert i) {
                return insert(i);
            }
            if (command instanceof Delete d) {
                return delete(d);
            }
            if (command instanceof Rename r) {
                return rename(r);
            }
            return Answer.error(((Malformed) command).message());
        }

        Answer view(View v) {
            ToolPath path = ToolPath.of(v.path());
            Optional<Document> file = path.isRoot() ? Optional.empty() : readable(path);
            if (file.isPresent()) {
                return MemoryView.file(v.path(), file.get().content(), v.viewRange());
            }
            List<DocumentHead> under = under(path);
            if (!path.isRoot() && under.isEmpty()) {
                return Answer.error(MemoryToolTexts.notFound(v.path()));
            }
            if (v.viewRange().isPresent()) {
                return Answer.error(MemoryToolTexts.rangeOnDirectory());
            }
            return Answer.ok(MemoryView.directory(path, under));
        }

        Answer create(Create c) {
            ToolPath path = ToolPath.of(c.path()).file();
            if (!under(path).isEmpty()) {
                return Answer.error(MemoryToolTexts.alreadyExists(c.path()));
            }
            checkWrites(path, c.path());
            try {
                documents.create(store, path.document(), c.fileText(), actor);
            } catch (DocumentRefused e) {
                if (e.kind() == DocumentRefused.Kind.PATH_TAKEN) {
                    return Answer.error(MemoryToolTexts.alreadyExists(c.path()));
                }
                throw e;
            }
            return Answer.ok(MemoryToolTexts.created(c.path()));
        }

        Answer strReplace(StrReplace s) {
            ToolPath path = ToolPath.of(s.path()).file();
            if (s.oldStr().isEmpty()) {
                return Answer.error("Error: old_str is empty; copy the exact text to replace from the file, long "
                        + "enough to occur once.");
            }
            return edit(path, s.path(), MemoryToolTexts.editNotFound(s.path()), content -> {
                int at = content.indexOf(s.oldStr());
                if (at < 0) {
                    return Edit.refused(MemoryToolTexts.notVerbatim(s.oldStr(), s.path()));
                }
                if (content.indexOf(s.oldStr(), at + 1) >= 0) {
                    List<Integer> lines = new java.util.ArrayList<>();
                    for (int i = at; i >= 0; i = content.indexOf(s.oldStr(), i + 1)) {
                        lines.add(Lines.lineAt(content, i));
                    }
                    return Edit.refused(MemoryToolTexts.notUnique(s.oldStr(), lines));
                }
                String after = content.substring(0, at) + s.newStr() + content.substring(at + s.oldStr().length());
                return Edit.to(after, MemoryToolTexts.edited() + MemoryToolTexts.snippetHeader() + "\n"
                        + MemoryView.snippet(after, Lines.lineAt(after, at), s.newStr()));
            });
        }

        Answer insert(Insert i) {
            ToolPath path = ToolPath.of(i.path()).file();
            return edit(path, i.path(), MemoryToolTexts.insertNotFound(i.path()), content -> {
                Lines lines = Lines.of(content);
                if (i.insertLine() < 0 || i.insertLine() > lines.count()) {
                    return Edit.refused(MemoryToolTexts.insertLine(i.insertLine(), lines.count()));
                }
                return Edit.to(lines.insert((int) i.insertLine(), i.insertText()),
                        MemoryToolTexts.inserted(i.path()));
            });
        }

        Answer delete(Delete d) {
            ToolPath path = ToolPath.of(d.path());
            if (path.isRoot()) {
                return Answer.error(MemoryToolTexts.deleteRoot());
            }
            Optional<Document> file = readable(path);
            if (file.isPresent()) {
                checkWrites(path, d.path());
                try {
                    documents.delete(store, file.get().id(), Optional.empty(), actor);
                } catch (NotFound e) {
                    return Answer.error(MemoryToolTexts.deleteNotFound(d.path()));
                }
                return Answer.ok(MemoryToolTexts.deleted(d.path()));
            }
            List<DocumentHead> under = under(path);
            if (under.isEmpty()) {
                return Answer.error(MemoryToolTexts.deleteNotFound(d.path()));
            }
            checkWritesAll(path, d.path());
            documents.deleteUnder(store, path.document(), actor);
            return Answer.ok(MemoryToolTexts.deleted(d.path()));
        }

        Answer rename(Rename r) {
            ToolPath from = ToolPath.of(r.oldPath());
            ToolPath to = ToolPath.of(r.newPath());
            if (from.isRoot()) {
                return Answer.error(MemoryToolTexts.renameRoot());
            }
            if (to.isRoot() || readable(to).isPresent() || !under(to).isEmpty()) {
                return Answer.error(MemoryToolTexts.destinationExists(r.newPath()));
            }
            to = to.file();
            Optional<Document> file = readable(from);
            if (file.isPresent()) {
                checkWrites(from, r.oldPath());
                checkWrites(to, r.newPath());
                try {
                    documents.update(store, file.get().id(), Optional.of(to.document()), Optional.empty(),
                            Optional.empty(), actor);
                } catch (NotFound e) {
                    return Answer.error(MemoryToolTexts.renameNotFound(r.oldPath()));
                } catch (DocumentRefused e) {
                    if (e.kind() == DocumentRefused.Kind.PATH_TAKEN) {
                        return Answer.error(MemoryToolTexts.destinationExists(r.newPath()));
                    }
                    throw e;
                }
                return Answer.ok(MemoryToolTexts.renamed(r.oldPath(), r.newPath()));
            }
            if (under(from).isEmpty()) {
                return Answer.error(MemoryToolTexts.renameNotFound(r.oldPath()));
            }
            if (dev.engram.documents.DocumentPath.under(to.document(), from.document())) {
                return Answer.error(MemoryToolTexts.renameIntoItself(r.oldPath(), r.newPath()));
            }
            checkWritesAll(from, r.oldPath());
            checkWrites(to, r.newPath());
            try {
                documents.move(store, from.document(), to.document(), actor);
            } catch (DocumentRefused e) {
                if (e.kind() == DocumentRefused.Kind.PATH_TAKEN) {
                    return Answer.error(MemoryToolTexts.destinationExists(r.newPath()));
                }
                throw e;
            }
            return Answer.ok(MemoryToolTexts.renamed(r.oldPath(), r.newPath()));
        }

        /**
         * Applies {@code edit} to the file's current content and writes it conditional on that content; after a
         * concurrent write, pauses a random while (longer after each) and applies it to the content then held.
         */
        private Answer edit(ToolPath path, String shown, String missing, Function<String, Edit> edit) {
            long start = System.nanoTime();
            long pause = 1;
            while (true) {
                Optional<Document> file = readable(path);
                if (file.isEmpty()) {
                    return Answer.error(missing);
                }
                Edit e = edit.apply(file.get().content());
                if (e.after() == null) {
                    return Answer.error(e.answer());
                }
                checkWrites(path, shown);
                try {
                    documents.update(store, file.get().id(), Optional.empty(), Optional.of(e.after()),
                            Optional.of(file.get().sha256()), actor);
                    return Answer.ok(e.answer());
                } catch (NotFound gone) {
                    return Answer.error(missing);
                } catch (DocumentRefused refused) {
                    if (refused.kind() != DocumentRefused.Kind.CHANGED) {
                        throw refused;
                    }
                    if (System.nanoTime() - start > DEADLINE.toNanos()) {
                        return Answer.error("Error: " + shown + " kept changing under concurrent edits for "
                                + DEADLINE.toSeconds() + " seconds; view it and try the edit again.");
                    }
                    pause(pause);
                    pause = Math.min(pause * 2, 64);
                }
            }
        }

        private Optional<Document> readable(ToolPath path) {
            if (path.isRoot() || !access.reads(path.document())) {
                return Optional.empty();
            }
            return documents.at(store, path.document());
        }

        private List<DocumentHead> under(ToolPath path) {
            return documents.under(store, path.document(), "", MAX_LISTED).stream()
                    .filter(d -> access.reads(d.path())).toList();
        }

        private void checkWrites(ToolPath path, String shown) {
            if (!access.writes(path.document())) {
                throw new ToolPath.Refused("Error: The path " + shown + " is read-only for this caller: its grant "
                        + "does not write there.");
            }
        }

        private void checkWritesAll(ToolPath path, String shown) {
            checkWrites(path, shown);
            for (DocumentHead d : under(path)) {
                if (!access.writes(d.path())) {
                    throw new ToolPath.Refused("Error: " + ROOT + d.path() + " under " + shown + " is read-only for "
                            + "this caller, so " + shown + " cannot change as a whole.");
                }
            }
        }
    }

    /** An edit's outcome: the content after it and the answer, or (after null) the refusal's text. */
    private record Edit(String after, String answer) {
        static Edit to(String after, String answer) {
            return new Edit(after, answer);
        }

        static Edit refused(String answer) {
            return new Edit(null, answer);
        }
    }

    private static void pause(long boundMillis) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(boundMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
