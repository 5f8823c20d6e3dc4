package dev.engram.tools;

import dev.engram.kernel.Scope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The four tools' definitions for one set of scopes: the writable scopes are an enum on {@code scope}, required when
 * there is more than one; read-only scopes appear only in memory_search's enum.
 */
public final class ToolSchemas {

    public static final String SAVE = "memory_save";
    public static final String PATCH = "memory_patch";
    public static final String FORGET = "memory_forget";
    public static final String SEARCH = "memory_search";

    private final List<Scope> writable;
    private final List<Scope> readOnly;
    private final int maxEntryBytes;
    private final ToolOptions options;

    public ToolSchemas(List<Scope> writable, List<Scope> readOnly, int maxEntryBytes, ToolOptions options) {
        this.writable = writable;
        this.readOnly = readOnly;
        this.maxEntryBytes = maxEntryBytes;
        this.options = options;
    }

    public List<ToolDefinition> all() {
        return List.of(
                new ToolDefinition(SAVE, "Save memory entry", saveDescription(), writerSchema(
                        prop("name", string("Kebab-case name, unique within the scope: lowercase letters and digits "
                                + "joined by hyphens, such as coding-style")),
                        prop("content", string("The whole content of the entry, in Markdown; headings of level four "
                                + "or none")),
                        prop("meta", meta())),
                        new ToolDefinition.Annotations(false, true, false, false)),
                new ToolDefinition(PATCH, "Edit memory entry", patchDescription(), writerSchema(
                        prop("name", string("The entry to edit")),
                        prop("old_text", string("Text that occurs exactly once in the entry, copied exactly")),
                        prop("new_text", string("What replaces it; an empty string removes it"))),
                        new ToolDefinition.Annotations(false, false, false, false)),
                new ToolDefinition(FORGET, "Forget memory entry", forgetDescription(), writerSchema(
                        prop("name", string("The entry to remove"))),
                        new ToolDefinition.Annotations(false, true, false, false)),
                new ToolDefinition(SEARCH, "Search memory", searchDescription(), searchSchema(),
                        new ToolDefinition.Annotations(true, false, true, false)));
    }

    /** Whether the scopes are chosen per connection, as over MCP, rather than known here. */
    private boolean perConnection() {
        return writable.isEmpty();
    }

    private Map<String, Object> writerSchema(Object[]... fields) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        Map<String, Object> scope = string(perConnection()
                ? "Which memory the entry belongs to: one of the scopes this connection allows, which may be left "
                        + "out when it allows one"
                : writable.size() == 1
                ? "Which memory the entry belongs to; may be left out, there is only " + writable.get(0)
                : "Which memory the entry belongs to; name one of the values");
        if (!perConnection()) {
            scope.put("enum", names(writable));
        }
        properties.put("scope", scope);
        if (writable.size() > 1) {
            required.add("scope");
        }
        for (Object[] field : fields) {
            properties.put((String) field[0], field[1]);
            if (!field[0].equals("meta")) {
                required.add((String) field[0]);
            }
        }
        return object(properties, required);
    }

    private Map<String, Object> searchSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("query", string("Words that must all occur, in any case, in an entry's name, description "
                + "or content"));
        Map<String, Object> item = string("A scope");
        if (!perConnection()) {
            item.put("enum", names(searchable()));
        }
        Map<String, Object> scopes = new LinkedHashMap<>();
        scopes.put("type", "array");
        scopes.put("items", item);
        scopes.put("description", "Which memories to search; all of them when left out");
        properties.put("scopes", scopes);
        Map<String, Object> limit = new LinkedHashMap<>();
        limit.put("type", "integer");
        limit.put("minimum", 1);
        limit.put("maximum", ToolOptions.MAX_SEARCH_LIMIT);
        limit.put("description", "At most this many entries (default " + options.searchLimit() + "); keep it low, "
                + "results stay in the conversation");
        properties.put("limit", limit);
        return object(properties, List.of("query"));
    }

    public List<Scope> searchable() {
        List<Scope> all = new ArrayList<>(writable);
        all.addAll(readOnly);
        return all;
    }

    private static Object[] prop(String name, Map<String, Object> schema) {
        return new Object[] {name, schema};
    }

    private static Map<String, Object> string(String description) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "string");
        s.put("description", description);
        return s;
    }

    private static Map<String, Object> meta() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "object");
        m.put("additionalProperties", Map.of("type", "string"));
        m.put("description", "Metadata beside the content, such as {\"description\": \"...\"}, which the memory block "
                + "shows; kebab-case keys, one-line values. Leave it out to keep the entry's metadata; give {} to "
                + "clear it");
        return m;
    }

    private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("type", "object");
        o.put("properties", properties);
        o.put("required", List.copyOf(required));
        o.put("additionalProperties", false);
        return o;
    }

    public static List<String> names(List<Scope> scopes) {
        return scopes.stream().map(Scope::value).toList();
    }

    public String writerScopes() {
        if (perConnection()) {
            return "The scopes are the ones this connection allows; a call naming another is told which they are.";
        }
        String list = writable.size() == 1
                ? "Scope: " + writable.get(0) + ", the only one, so scope may be left out."
                : "Scopes: " + String.join(", ", names(writable)) + "; name one on every call.";
        for (Scope s : readOnly) {
            list += " Scope " + s + " is read-only: memory_search reads it, and a write to it is refused with \""
                    + readOnlyMessage(s) + "\".";
        }
        return list;
    }

    public static String readOnlyMessage(Scope s) {
        return "scope " + s + " is read-only";
    }

    private String saveDescription() {
        return "Create a memory entry, or replace one whole. To change part of an existing entry prefer "
                + "memory_patch, which sends only the change. Content is Markdown of at most "
                + (perConnection() ? "the store's limit in" : String.valueOf(maxEntryBytes))
                + " bytes; a larger one is refused with the sizes to trim to. Give a description in meta so the "
                + "entry can be found. Leaving meta out keeps the entry's metadata; {} clears it. The result says "
                + "what the write replaced, what became of the metadata, and whether the entry had changed since "
                + "the memory block you were shown. " + writerScopes();
    }

    private String patchDescription() {
        return "Edit a memory entry by replacing old_text with new_text. old_text must occur exactly once in the "
                + "entry, copied exactly; the call says so when it is missing or repeated. Prefer this to "
                + "memory_save for an edit: the call is the size of the change, and the edit is anchored in the "
                + "stored text, so a change another session made in the meantime is kept. " + writerScopes();
    }

    private String forgetDescription() {
        return "Remove a memory entry. The store's journal keeps its last content. " + writerScopes();
    }

    private String searchDescription() {
        List<Scope> all = searchable();
        String scopes = perConnection() ? "The scopes are the ones this connection allows, all of them when "
                + "scopes is left out." : all.size() == 1 ? "Scope: " + all.get(0) + ", the only one."
                : "Scopes: " + String.join(", ", names(all)) + "; all of them when scopes is left out.";
        if (!readOnly.isEmpty()) {
            scopes += " Read-only, for reading: " + String.join(", ", names(readOnly)) + ".";
        }
        return "Find memory entries: the ones the memory block leaves out, or one to read whole before editing it. "
                + "Every word of the query must occur, in any case, in an entry's name, description or content. "
                + "Returns up to " + options.searchLimit() + " entries unless limit says otherwise, and at most "
                + options.searchBytes() + " bytes of content; the other matches are named. Results stay in the "
                + "conversation, so search for what you need. " + scopes;
    }
}
