package dev.engram.entries;

import dev.engram.kernel.Scope;
import java.util.List;
import java.util.Map;

/** What the parts of {@link StoreContract} write and read back: two scopes, drafts of entries, the journal. */
final class StoreCases {

    static final Scope USER = new Scope("user");
    static final Scope PROJECT = new Scope("project");

    private StoreCases() {
    }

    static Entry entry(Scope scope, String name, String content) {
        return Entry.draft(scope, name, content, Map.of());
    }

    static Entry entry(Scope scope, String name, String content, Map<String, String> meta) {
        return Entry.draft(scope, name, content, meta);
    }

    /** The whole journal; a store of entries alone holds only their records. */
    static List<Change> all(Store s) {
        return s.journal(0, 0).stream().map(Change.class::cast).toList();
    }

    static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }
}
