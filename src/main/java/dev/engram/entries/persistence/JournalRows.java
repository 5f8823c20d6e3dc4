package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.instant;

import dev.engram.journal.persistence.JournalEntity;

/**
 * A journal record a write function returns inside a composite ({@code (o.rec)}), beside other columns, so that it
 * cannot be read as the entity directly: its columns, as {@link #select} lists them, read into a
 * {@link JournalEntity}.
 */
final class JournalRows {

    private JournalRows() {
    }

    /** The columns of the record {@code composite} (such as {@code (o.rec)}), its jsonb ones as text. */
    static String select(String composite) {
        StringBuilder b = new StringBuilder();
        for (String c : JournalEntity.columns("").split(", ")) {
            String column = composite + "." + c;
            boolean json = c.equals("meta") || c.equals("erasure") || c.equals("record");
            b.append(b.isEmpty() ? "" : ", ").append(json ? "cast(" + column + " as text)" : column);
        }
        return b.toString();
    }

    /** The record in {@code row} from column {@code first} (0-based) on, as {@link #select} lists them. */
    static JournalEntity read(Object[] row, int first) {
        int i = first;
        JournalEntity j = new JournalEntity();
        j.storeId = (String) row[i++];
        j.seq = ((Number) row[i++]).longValue();
        j.scope = (String) row[i++];
        j.name = (String) row[i++];
        j.content = (String) row[i++];
        j.meta = (String) row[i++];
        j.hash = (String) row[i++];
        j.updated = row[i] == null ? null : instant(row[i]);
        i++;
        j.deleted = Boolean.TRUE.equals(row[i++]);
        j.prev = (String) row[i++];
        j.replaced = (String) row[i++];
        j.session = (String) row[i++];
        j.source = (String) row[i++];
        j.at = instant(row[i++]);
        j.erasedBy = row[i] == null ? null : ((Number) row[i]).longValue();
        i++;
        j.erasure = (String) row[i++];
        j.kind = (String) row[i++];
        j.body = (String) row[i];
        return j;
    }
}
