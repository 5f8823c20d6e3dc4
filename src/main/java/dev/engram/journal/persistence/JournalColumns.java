package dev.engram.journal.persistence;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Note;
import dev.engram.kernel.Scope;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * A journal record read over JDBC: the columns to select, in order, and the record they make: an entry's change or
 * erasure record ({@link Change}) for the kind {@value #ENTRY}, else a note of another tier, whose entry columns are
 * placeholders this mapping never reads.
 */
public final class JournalColumns {

    private static final String[] NAMES = {"seq", "scope", "name", "content", "meta::text", "hash", "updated",
        "deleted", "prev", "replaced", "session", "source", "at", "erased_by", "erasure::text", "kind",
        "record::text"};

    /** The kind of an entry's record; any other kind is a {@link Note} of another tier. */
    public static final String ENTRY = "entry";
    /** Offsets in {@link #NAMES} of the columns a note is read from. */
    private static final int NAME = 2;
    private static final int AT = 12;
    private static final int KIND = 15;

    private JournalColumns() {
    }

    /** The columns, each after {@code prefix} (such as {@code "j."} or {@code "(o.rec)."}), comma-separated. */
    public static String select(String prefix) {
        StringBuilder b = new StringBuilder();
        for (String name : NAMES) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(name.endsWith("::text") ? "(" + prefix + name.replace("::text", "") + ")::text" : prefix + name);
        }
        return b.toString();
    }

    /** The record in the row's columns from {@code first} (1-based) on, as {@link #select} lists them. */
    public static JournalRecord read(ResultSet r, int first) throws SQLException {
        String kind = r.getString(first + KIND);
        if (!ENTRY.equals(kind)) {
            return JournalRecord.note(r.getLong(first), new Note(kind, r.getString(first + NAME),
                    r.getString(first + KIND + 1)), r.getObject(first + AT, OffsetDateTime.class).toInstant());
        }
        return change(r, first);
    }

    /**
     * The entry's change (or erasure record) in the row's columns from {@code first} on, as {@link #select} lists
     * them: the row of a write function, which is always an entry's.
     *
     * @throws IllegalStateException if the row is a note of another tier
     */
    public static Change change(ResultSet r, int first) throws SQLException {
        if (!ENTRY.equals(r.getString(first + KIND))) {
            throw new IllegalStateException("journal record " + r.getLong(first) + " is a "
                    + r.getString(first + KIND) + " record, not an entry's");
        }
        int i = first;
        long seq = r.getLong(i++);
        Scope scope = new Scope(r.getString(i++));
        String name = r.getString(i++);
        String content = r.getString(i++);
        Map<String, String> meta = MetaJson.parse(r.getString(i++));
        String hash = r.getString(i++);
        var updated = r.getObject(i++, OffsetDateTime.class).toInstant();
        boolean deleted = r.getBoolean(i++);
        String prev = r.getString(i++);
        String replaced = r.getString(i++);
        String session = r.getString(i++);
        String source = r.getString(i++);
        var at = r.getObject(i++, OffsetDateTime.class).toInstant();
        long erased = r.getLong(i++);
        String erasure = r.getString(i);
        return new Change(seq, new Entry(scope, name, content, meta, hash, updated, deleted), prev, replaced, session,
                source, at, erased, erasure(erasure == null ? null : MetaJson.parse(erasure)));
    }

    /** The erasure a record's {@code erasure} column holds, {@code {"by", "reason"}}; empty for null. */
    static Optional<Erasure> erasure(Map<String, String> column) {
        return column == null ? Optional.empty()
                : Optional.of(new Erasure(column.getOrDefault("by", ""), column.getOrDefault("reason", "")));
    }
}
