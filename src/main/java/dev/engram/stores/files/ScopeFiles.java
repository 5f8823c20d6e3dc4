package dev.engram.stores.files;

import dev.engram.entries.Entry;
import java.io.IOException;
import java.time.Instant;

/**
 * The scope directories of an export, written as the live entries come by scope and name: each entry's file, and
 * after a scope's last entry its {@code INDEX.md}; each entry is noted for {@code .state.json} too.
 */
public final class ScopeFiles {

    private final ArchiveWriter out;
    private final StateFile state;
    private String scope;
    private ScopeIndex index;
    private Instant newest = Instant.EPOCH;

    public ScopeFiles(ArchiveWriter out, StateFile state) {
        this.out = out;
        this.state = state;
    }

    /** Writes live entry {@code e}, which sorts after every entry added before it. */
    public void add(Entry e) throws IOException {
        if (!e.scope().value().equals(scope)) {
            finish();
            scope = e.scope().value();
            index = new ScopeIndex(scope);
        }
        out.text(Layout.entry(scope, e.name()), EntryFile.write(e), e.updated());
        index.add(e);
        state.add(e);
        if (e.updated().isAfter(newest)) {
            newest = e.updated();
        }
    }

    /** Writes the last scope's index. */
    public void finish() throws IOException {
        if (index != null) {
            out.text(scope + "/" + Layout.INDEX, index.text(), newest);
            index = null;
            newest = Instant.EPOCH;
        }
    }
}
