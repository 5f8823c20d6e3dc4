package dev.engram.stores.files;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.kernel.Scope;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One record of the reference store's {@code journal.jsonl}: written member for member and byte for byte as the
 * reference writes it (docs/filestore-format.md, "Encoding"), and read as its reader reads one, where a line that is
 * not a record is damaged and skipped rather than fatal.
 */
public final class JournalLine {

    private JournalLine() {
    }

    /** The line of {@code c}, without its final {@code \n}: members in the reference's order, each left out when empty. */
    public static String write(Change c) {
        Entry e = c.entry();
        StringBuilder b = new StringBuilder(256 + e.content().length());
        b.append("{\"seq\":").append(c.seq()).append(",\"entry\":{\"scope\":");
        GoJson.quote(b, e.scope().value()).append(",\"name\":");
        GoJson.quote(b, e.name()).append(",\"content\":");
        GoJson.quote(b, e.content());
        if (!e.meta().isEmpty()) {
            b.append(",\"meta\":{");
            boolean first = true;
            for (Map.Entry<String, String> m : e.meta().entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                GoJson.quote(b, m.getKey()).append(':');
                GoJson.quote(b, m.getValue());
            }
            b.append('}');
        }
        b.append(",\"hash\":");
        GoJson.quote(b, e.hash()).append(",\"updated\":\"").append(GoJson.time(e.updated())).append('"');
        if (e.deleted()) {
            b.append(",\"deleted\":true");
        }
        b.append('}');
        member(b, "prev", c.prev());
        member(b, "replaced", c.replaced());
        member(b, "session", c.session());
        member(b, "source", c.source());
        return b.append(",\"at\":\"").append(GoJson.time(c.at())).append("\"}").toString();
    }

    private static void member(StringBuilder b, String name, String value) {
        if (!value.isEmpty()) {
            b.append(",\"").append(name).append("\":");
            GoJson.quote(b, value);
        }
    }

    /**
     * The record {@code line} holds, or empty when it is damaged: not a JSON object, no positive {@code seq}, no
     * {@code entry} with a scope and a name that are names, no {@code entry.hash}, or a member of the wrong type.
     * Members it does not know are ignored.
     */
    public static Optional<Change> read(String line) {
        try {
            if (!(JsonText.parse(line) instanceof Map<?, ?> r) || !(r.get("entry") instanceof Map<?, ?> e)) {
                return Optional.empty();
            }
            long seq = r.get("seq") instanceof BigDecimal n ? n.longValueExact() : 0;
            String scope = text(e, "scope");
            String name = text(e, "name");
            String hash = text(e, "hash");
            if (seq <= 0 || !EntryRules.validName(scope) || !EntryRules.validName(name) || hash.isEmpty()) {
                return Optional.empty();
            }
            Map<String, String> meta = new TreeMap<>();
            if (e.get("meta") instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> kv : m.entrySet()) {
                    meta.put((String) kv.getKey(), (String) kv.getValue());
                }
            } else if (e.get("meta") != null) {
                return Optional.empty();
            }
            boolean deleted = Boolean.TRUE.equals(e.get("deleted"));
            Instant at = time(r.get("at"));
            Instant updated = e.get("updated") == null ? at : time(e.get("updated"));
            Entry entry = new Entry(Scope.of(scope), name, text(e, "content"), meta, hash, updated, deleted);
            return Optional.of(new Change(seq, entry, text(r, "prev"), text(r, "replaced"), text(r, "session"),
                    text(r, "source"), at));
        } catch (IllegalArgumentException | ClassCastException | ArithmeticException | DateTimeParseException x) {
            return Optional.empty();
        }
    }

    private static String text(Map<?, ?> m, String member) {
        Object v = m.get(member);
        if (v == null) {
            return "";
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(member + " is not a string");
        }
        return s;
    }

    /** An RFC 3339 time with any fraction and any offset. */
    static Instant time(Object v) {
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("a time is not a string");
        }
        return OffsetDateTime.parse(s).toInstant();
    }
}
