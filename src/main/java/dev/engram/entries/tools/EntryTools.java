package dev.engram.entries.tools;

import dev.engram.tools.Arguments;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import dev.engram.tools.ToolSchemas;
import dev.engram.tools.WriteRecord;
import dev.engram.entries.Change;
import dev.engram.kernel.Conflict;
import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.entries.Hash;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.entries.Patch;
import dev.engram.entries.Replayed;
import dev.engram.entries.Written;
import dev.engram.entries.PutOptions;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.kernel.TooLarge;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.ManifestEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The four memory tools over one store, restricted to the scopes a product allows: memory_save, memory_patch,
 * memory_forget and memory_search. Mistakes a model can fix come back as error text that says how; only failures of
 * the store itself are thrown.
 */
public final class EntryTools {

    /** The tool that may create the store it writes to. */
    public static final String SAVE = ToolSchemas.SAVE;

    private final Store store;
    private final List<Scope> writable;
    private final List<Scope> readOnly;
    private final ToolOptions options;
    private final Supplier<Optional<Manifest>> shown;
    private final ToolSchemas schemas;
    private final String by;

    /** Tools whose writes name no writer ({@link PutOptions#by}). */
    public EntryTools(Store store, List<Scope> writable, List<Scope> readOnly, ToolOptions options,
            Supplier<Optional<Manifest>> shown) {
        this(store, writable, readOnly, options, shown, "");
    }

    /**
     * @param writable the scopes the tools write, in the order offered; at least one
     * @param readOnly scopes memory_search reads and the writers refuse
     * @param shown the manifest of the block the model is composing from (the session's last render), or empty
     * @param by who the calls are made by, recorded on what they write ({@link PutOptions#by}); "" when not known
     */
    public EntryTools(Store store, List<Scope> writable, List<Scope> readOnly, ToolOptions options,
            Supplier<Optional<Manifest>> shown, String by) {
        this.by = by == null ? "" : by;
        this.store = Objects.requireNonNull(store, "store");
        this.writable = List.copyOf(writable);
        this.readOnly = List.copyOf(readOnly);
        this.options = Objects.requireNonNull(options, "options");
        this.shown = Objects.requireNonNull(shown, "shown");
        checkScopes();
        this.schemas = new ToolSchemas(this.writable, this.readOnly, store.maxEntryBytes(), options);
    }

    private void checkScopes() {
        if (writable.isEmpty()) {
            throw new Invalid("scopes-missing", "scopes", "The tools need at least one writable scope, such as user.");
        }
        Set<Scope> seen = new HashSet<>();
        for (Scope s : writable) {
            EntryRules.checkScope(s);
            if (!seen.add(s)) {
                throw new Invalid("scope-repeated", "scopes", "Scope " + s + " is given twice.");
            }
        }
        for (Scope s : readOnly) {
            EntryRules.checkScope(s);
            if (!seen.add(s)) {
                throw new Invalid("scope-repeated", "read_scopes", "Scope " + s + " is given twice, or is both "
                        + "writable and read-only; name each once.");
            }
        }
    }

    /**
     * The tools' definitions where the scopes are chosen per connection and not known when the tools are listed,
     * as over MCP: {@code scope} carries no enum, and a call naming a scope the connection does not allow is told
     * which it allows.
     */
    public static List<ToolDefinition> perConnectionDefinitions(ToolOptions options) {
        return new ToolSchemas(List.of(), List.of(), 0, options).all();
    }

    /** The tools' definitions, with the scopes in their schemas. */
    public List<ToolDefinition> definitions() {
        return schemas.all();
    }

    /** Runs one call, attributed to {@code session} ("" for none). */
    public ToolResult call(String name, Map<String, Object> arguments, String session) {
        return call(name, arguments, session, Optional.empty()).result();
    }

    /**
     * What a call answered: its result, or, for a write whose idempotency key wrote before with the same request,
     * the first write {@link Replayed} (whose reply is the first call's text) with nothing written.
     */
    public record Called(ToolResult result, Optional<Replayed> replayed) {

        public Called {
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(replayed, "replayed");
        }

        static Called ran(ToolResult result) {
            return new Called(result, Optional.empty());
        }
    }

    /**
     * Runs one call, attributed to {@code session} ("" for none); a write is made at most once under {@code key},
     * which records the call's output text with it. A call whose key wrote before, with the same request, is answered
     * {@link Called#replayed}; with another request, {@link dev.engram.kernel.KeyReused}. A call that writes nothing
     * records nothing.
     */
    public Called call(String name, Map<String, Object> arguments, String session, Optional<IdempotencyKey> key) {
        Arguments args = new Arguments(arguments == null ? Map.of() : arguments);
        Objects.requireNonNull(key, "key");
        try {
            return switch (name == null ? "" : name) {
                case ToolSchemas.SAVE -> save(args, session, key);
                case ToolSchemas.PATCH -> patch(args, session, key);
                case ToolSchemas.FORGET -> forget(args, session, key);
                case ToolSchemas.SEARCH -> Called.ran(search(args));
                default -> Called.ran(ToolResult.error("invalid", "There is no tool \"" + name + "\"; the memory "
                        + "tools are " + ToolSchemas.SAVE + ", " + ToolSchemas.PATCH + ", " + ToolSchemas.FORGET
                        + " and " + ToolSchemas.SEARCH + "."));
            };
        } catch (Arguments.Refused refused) {
            return Called.ran(ToolResult.error("invalid", refused.getMessage()));
        } catch (Invalid e) {
            return Called.ran(ToolResult.error("invalid", e.getMessage()));
        } catch (TooLarge e) {
            return Called.ran(ToolResult.error("too_large", e.getMessage()));
        } catch (Conflict e) {
            return Called.ran(ToolResult.error("conflict", e.getMessage()));
        } catch (Limited e) {
            return Called.ran(ToolResult.error("quota", e.getMessage()));
        }
    }

    /** The answer to a write: what {@code line} says of the record it landed, or the first write replayed. */
    private static Called answer(Written written, String tool, Function<Change, String> line) {
        if (written instanceof Replayed replayed) {
            return new Called(ToolResult.text(replayed.first().reply()), Optional.of(replayed));
        }
        Change c = written.change();
        return Called.ran(ToolResult.wrote(line.apply(c), new WriteRecord(tool, c)));
    }

    // ---------------------------------------------------------------------------------------------- memory_save

    /**
     * Writes the entry whole. A call without meta keeps the stored meta; {} clears it. The write is based on the hash
     * the session's last render showed when that render held the entry, else on this read ("" when the entry was
     * absent), so a write another session made in between, a create included, is a lost update the journal reports,
     * and the result says so. The result says what the write replaced, which is not always what was read.
     */
    private Called save(Arguments args, String session, Optional<IdempotencyKey> key) {
        args.only("scope", "name", "content", "meta");
        Scope scope = writableScope(args.string("scope", false));
        String name = args.string("name", true);
        String content = args.string("content", true);
        Optional<Map<String, String>> meta = args.meta("meta");
        Entry stored = find(scope, name);
        Map<String, String> finalMeta = meta.orElse(stored == null ? Map.of() : stored.meta());
        Optional<String> fromBlock = shownHash(scope, name);
        String read = stored == null ? "" : stored.hash();
        String base = fromBlock.orElse(read);
        Entry draft = Entry.draft(scope, name, content, finalMeta);
        PutOptions put = PutOptions.NONE.session(session).by(by).basedOn(base);
        if (key.isPresent()) {
            // A retry under the key is answered with the line of the write as this call expects it to land (on what
            // it read), recorded with the key in the write's own transaction; this answer says what it did replace.
            Entry expected = new Entry(scope, name, content, finalMeta, Hash.of(content), null, false);
            put = put.idempotent(key.get().reply(saved(new Change(0, expected, base, read, session, "",
                    Instant.EPOCH), stored, meta, fromBlock)));
        }
        return answer(store.put(draft, put), ToolSchemas.SAVE, c -> saved(c, stored, meta, fromBlock));
    }

    /** The line a save answers: what it wrote, what it replaced, what became of the meta, and what it was built on. */
    private String saved(Change c, Entry stored, Optional<Map<String, String>> meta, Optional<String> fromBlock) {
        return "Saved " + c.entry().scope() + "/" + c.entry().name() + " (" + c.entry().size() + " of "
                + store.maxEntryBytes() + " bytes, " + c.entry().hash() + "): " + replacedSaid(c, stored) + "; "
                + metaSaid(stored, meta, c.entry().meta()) + basedSaid(c, stored, fromBlock) + ".";
    }

    /** {@code options} made at most once under {@code key}, recording {@code reply} with it. */
    private static PutOptions once(PutOptions options, Optional<IdempotencyKey> key, String reply) {
        return key.map(k -> options.idempotent(k.reply(reply))).orElse(options);
    }

    private Optional<String> shownHash(Scope scope, String name) {
        return shown.get().flatMap(m -> m.entries().stream()
                .filter(e -> e.scope().equals(scope) && e.name().equals(name)).map(ManifestEntry::hash).findFirst());
    }

    /** What the write replaced, from its journal record: the size only when it is the state this call read. */
    private static String replacedSaid(Change c, Entry stored) {
        if (c.replaced().isEmpty()) {
            return "created";
        }
        if (stored != null && stored.hash().equals(c.replaced())) {
            return "replaced " + stored.size() + " bytes";
        }
        return "replaced " + c.replaced();
    }

    private static String metaSaid(Entry stored, Optional<Map<String, String>> given, Map<String, String> result) {
        String keys = String.join(", ", result.keySet());
        if (result.isEmpty()) {
            return stored == null || stored.meta().isEmpty() ? "no meta" : "meta cleared";
        }
        if (given.isEmpty()) {
            return "meta kept (" + keys + ")";
        }
        return stored == null ? "meta set (" + keys + ")" : "meta replaced (" + keys + ")";
    }

    private String basedSaid(Change c, Entry stored, Optional<String> fromBlock) {
        if (!c.forked()) {
            if (fromBlock.isPresent()) {
                return "; built on the memory block";
            }
            return stored == null || shown.get().isEmpty() ? "" : "; built on the stored entry, which the memory "
                    + "block did not show";
        }
        if (c.replaced().isEmpty()) {
            return fromBlock.isPresent() ? "; built on the memory block, but the entry was forgotten after the block "
                    + "was rendered, and this write created it again" : "; but another session forgot the entry after "
                    + "this call read it, and this write created it again";
        }
        if (fromBlock.isEmpty()) {
            return "; but another session wrote it (" + c.replaced() + ") after this call read "
                    + (stored == null ? "that it did not exist" : "it") + ", and this write replaced that change; "
                    + "search for the entry if the change mattered, and save again with it";
        }
        return "; built on the memory block's " + fromBlock.get() + ", but the entry changed to " + c.replaced()
                + " after the block was rendered, and this write replaced that change; search for the entry if "
                + "the change mattered, and save again with it";
    }

    // ---------------------------------------------------------------------------------------------- memory_patch

    private Called patch(Arguments args, String session, Optional<IdempotencyKey> key) {
        args.only("scope", "name", "old_text", "new_text");
        Scope scope = writableScope(args.string("scope", false));
        String name = args.string("name", true);
        EntryRules.checkName(name);
        Patch patch = new Patch(args.string("old_text", true), args.string("new_text", true));
        Function<Entry, String> line = e -> "Patched " + scope + "/" + name + " (" + e.size() + " of "
                + store.maxEntryBytes() + " bytes, " + Hash.of(e.content()) + ").";
        try {
            return answer(patch.applyTo(store, scope, name, once(PutOptions.NONE.session(session).by(by), key, ""),
                    options.patchDeadline(), line), ToolSchemas.PATCH, c -> line.apply(c.entry()));
        } catch (NotFound e) {
            return Called.ran(ToolResult.error("not_found", "There is no entry " + scope + "/" + name + " to patch; "
                    + "memory_save creates one."));
        }
    }

    // ---------------------------------------------------------------------------------------------- memory_forget

    private Called forget(Arguments args, String session, Optional<IdempotencyKey> key) {
        args.only("scope", "name");
        Scope scope = writableScope(args.string("scope", false));
        String name = args.string("name", true);
        EntryRules.checkName(name);
        String line = "Forgot " + scope + "/" + name + "; the journal keeps its last content.";
        try {
            return answer(store.forget(scope, name, once(PutOptions.NONE.session(session).by(by), key, line)),
                    ToolSchemas.FORGET, c -> line);
        } catch (NotFound e) {
            return Called.ran(ToolResult.error("not_found", "There is no entry " + scope + "/" + name + " to forget."));
        }
    }

    // ---------------------------------------------------------------------------------------------- memory_search

    private ToolResult search(Arguments args) {
        args.only("query", "scopes", "limit");
        String query = args.string("query", true);
        if (query.isBlank()) {
            return ToolResult.error("invalid", "query is empty; give one or more words to look for.");
        }
        List<Scope> scopes = schemas.searchable();
        Optional<List<String>> named = args.strings("scopes");
        if (named.isPresent() && !named.get().isEmpty()) {
            scopes = new ArrayList<>();
            for (String s : named.get()) {
                Scope scope = new Scope(s);
                if (!schemas.searchable().contains(scope)) {
                    return ToolResult.error("invalid", "scope \"" + s + "\" is not available; search "
                            + String.join(", ", ToolSchemas.names(schemas.searchable())) + ".");
                }
                scopes.add(scope);
            }
        }
        int limit = args.integer("limit", 1, ToolOptions.MAX_SEARCH_LIMIT).orElse(options.searchLimit());
        Paged<Entry> found = store.searchPage(scopes, query, options.searchOrder(), 0, limit, Long.MAX_VALUE);
        String searched = String.join(", ", ToolSchemas.names(scopes));
        if (found.items().isEmpty()) {
            return ToolResult.text("No entries in " + searched + " match \"" + query + "\".");
        }
        boolean more = found.more();
        List<Entry> page = found.items();
        String ordered = options.searchOrder() == SearchOrder.RELEVANCE && page.size() > 1 ? ", best match first" : "";
        StringBuilder out = new StringBuilder();
        out.append(page.size()).append(page.size() == 1 ? " match" : " matches").append(" in ").append(searched)
                .append(" for \"").append(query).append('"').append(ordered).append(".\n");
        int bytes = 0;
        List<String> unshown = new ArrayList<>();
        for (Entry e : page) {
            String id = e.scope() + "/" + e.name() + " (" + e.size() + " bytes)";
            if (bytes + e.size() > options.searchBytes()) {
                unshown.add(id);
                continue;
            }
            bytes += e.size();
            out.append('\n').append(id);
            if (!e.description().isEmpty()) {
                out.append(": ").append(e.description());
            }
            out.append('\n').append(e.content());
            if (!e.content().endsWith("\n")) {
                out.append('\n');
            }
        }
        if (!unshown.isEmpty()) {
            out.append("\nNot shown, over the ").append(options.searchBytes()).append(" byte result limit; search for ")
                    .append("them by name: ").append(String.join(", ", unshown)).append('\n');
        }
        if (more) {
            out.append("\nMore entries match than the ").append(limit).append(" shown; narrow the query, or raise ")
                    .append("limit (at most ").append(ToolOptions.MAX_SEARCH_LIMIT).append(").\n");
        }
        return ToolResult.text(out.toString());
    }

    // ---------------------------------------------------------------------------------------------- scopes

    private Scope writableScope(String value) {
        if (value == null) {
            if (writable.size() == 1) {
                return writable.get(0);
            }
            throw new Arguments.Refused("scope is required; name one of: " + String.join(", ",
                    ToolSchemas.names(writable)) + ".");
        }
        Scope scope = new Scope(value);
        if (writable.contains(scope)) {
            return scope;
        }
        if (readOnly.contains(scope)) {
            throw new Arguments.Refused(ToolSchemas.readOnlyMessage(scope) + "; write to "
                    + String.join(", ", ToolSchemas.names(writable)) + ".");
        }
        throw new Arguments.Refused("scope \"" + value + "\" is not available; " + schemas.writerScopes());
    }

    private Entry find(Scope scope, String name) {
        EntryRules.checkName(name);
        try {
            return store.get(scope, name);
        } catch (NotFound absent) {
            return null;
        }
    }
}
