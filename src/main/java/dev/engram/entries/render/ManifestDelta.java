package dev.engram.entries.render;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The delta form of a manifest record. Both sides walk the earlier list with one cursor: a keep copies the next
 * entries at the cursor; an entry written whole is taken as it is and, when the earlier list holds it, moves the
 * cursor past its place there.
 */
final class ManifestDelta {

    /** One element of a delta's list: a keep of {@code keep} entries, or an entry written whole. */
    record Op(int keep, ManifestEntry entry) {
    }

    /** A parsed delta. */
    record Delta(String base, String hash, List<Op> entries, List<Op> omitted) {

        Manifest applyTo(Manifest m) {
            Manifest out = new Manifest(fold(m.entries(), entries, "entries"), fold(m.omitted(), omitted, "omitted"));
            String got = out.hash();
            if (!got.equals(hash)) {
                throw malformed("the result hashes " + got + ", the delta says " + hash);
            }
            return out;
        }
    }

    /** A record read: either whole, or a delta. */
    record Parsed(Manifest whole, Delta delta) {
    }

    private ManifestDelta() {
    }

    static String recordSince(Manifest prev, Manifest next) {
        String whole = next.record();
        List<Op> entries = diff(prev.entries(), next.entries());
        List<Op> omitted = diff(prev.omitted(), next.omitted());
        if (entries == null || omitted == null) {
            return whole;
        }
        StringBuilder out = new StringBuilder("{\"base\":");
        RecordJson.string(out, prev.hash());
        out.append(",\"hash\":");
        RecordJson.string(out, next.hash());
        write(out, "entries", entries);
        write(out, "omitted", omitted);
        out.append('}');
        return Utf8.length(out) >= Utf8.length(whole) ? whole : out.toString();
    }

    private static void write(StringBuilder out, String member, List<Op> ops) {
        if (ops.isEmpty()) {
            return;
        }
        out.append(",\"").append(member).append("\":[");
        for (int i = 0; i < ops.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            Op op = ops.get(i);
            if (op.entry() == null) {
                out.append("{\"keep\":").append(op.keep()).append('}');
            } else {
                RecordJson.entry(out, op.entry(), null);
            }
        }
        out.append(']');
    }

    /** Positions by key, or null when the list names an entry twice. */
    private static Map<String, Integer> index(List<ManifestEntry> list) {
        Map<String, Integer> at = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            if (at.put(list.get(i).key(), i) != null) {
                return null;
            }
        }
        return at;
    }

    /** {@code next} as ops on {@code prev}, or null when either names an entry twice. */
    private static List<Op> diff(List<ManifestEntry> prev, List<ManifestEntry> next) {
        Map<String, Integer> at = index(prev);
        if (at == null || index(next) == null) {
            return null;
        }
        List<Op> ops = new ArrayList<>();
        int cursor = 0;
        int run = 0;
        for (ManifestEntry e : next) {
            Integer j = at.get(e.key());
            if (j != null && j == cursor + run && prev.get(j).equals(e)) {
                run++;
                continue;
            }
            if (run > 0) {
                ops.add(new Op(run, null));
                cursor += run;
                run = 0;
            }
            ops.add(new Op(0, e));
            if (j != null) {
                cursor = j + 1;
            }
        }
        if (run > 0) {
            ops.add(new Op(run, null));
        }
        return ops;
    }

    private static List<ManifestEntry> fold(List<ManifestEntry> prev, List<Op> ops, String list) {
        Map<String, Integer> at = index(prev);
        if (at == null) {
            throw malformed("the manifest in force names an entry twice in " + list);
        }
        List<ManifestEntry> out = new ArrayList<>();
        int cursor = 0;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.entry() != null && op.keep() != 0) {
                throw malformed(list + " element " + i + " is both a keep and an entry");
            } else if (op.entry() != null) {
                ManifestEntry e = op.entry();
                if (e.scope().value().isEmpty() || e.name().isEmpty()) {
                    throw malformed(list + " element " + i + " names no entry");
                }
                out.add(e);
                Integer j = at.get(e.key());
                if (j != null) {
                    cursor = j + 1;
                }
            } else if (op.keep() > 0 && op.keep() <= prev.size() - cursor) {
                out.addAll(prev.subList(cursor, cursor + op.keep()));
                cursor += op.keep();
            } else if (op.keep() > 0) {
                throw malformed(list + " element " + i + " keeps " + op.keep() + " entries and "
                        + (prev.size() - cursor) + " are left");
            } else {
                throw malformed(list + " element " + i + " is neither a positive keep nor an entry");
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------ reading

    /** Reads a record: whole when it has no {@code base}, else a delta. */
    @SuppressWarnings("unchecked")
    static Parsed parse(String record) {
        Object value = RecordJson.parse(record);
        if (!(value instanceof Map<?, ?> map)) {
            throw malformed("a record is a JSON object");
        }
        Map<String, Object> m = (Map<String, Object>) map;
        if (m.get("base") == null) {
            return new Parsed(new Manifest(entries(m.get("entries"), "entries"), entries(m.get("omitted"), "omitted")),
                    null);
        }
        return new Parsed(null, new Delta(text(m.get("base"), "base"), text(m.get("hash"), "hash"),
                ops(m.get("entries"), "entries"), ops(m.get("omitted"), "omitted")));
    }

    private static List<ManifestEntry> entries(Object value, String list) {
        List<ManifestEntry> out = new ArrayList<>();
        for (Object item : items(value, list)) {
            out.add(entry(item, list));
        }
        return out;
    }

    private static List<Op> ops(Object value, String list) {
        List<Op> out = new ArrayList<>();
        for (Object item : items(value, list)) {
            if (!(item instanceof Map<?, ?> m)) {
                throw malformed(list + " holds something that is not an object");
            }
            boolean hasEntry = m.containsKey("scope") || m.containsKey("name") || m.containsKey("hash")
                    || m.containsKey("bytes") || m.containsKey("reason");
            out.add(new Op(whole(m.get("keep"), list + " has a keep"), hasEntry ? entry(m, list) : null));
        }
        return out;
    }

    private static List<?> items(Object value, String list) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> l)) {
            throw malformed(list + " is not a list");
        }
        return l;
    }

    private static ManifestEntry entry(Object item, String list) {
        if (!(item instanceof Map<?, ?> m)) {
            throw malformed(list + " holds something that is not an object");
        }
        return new ManifestEntry(new Scope(text(m.get("scope"), "scope")), text(m.get("name"), "name"),
                text(m.get("hash"), "hash"), whole(m.get("bytes"), list + " has a bytes value"),
                text(m.get("reason"), "reason"));
    }

    /** A whole number a record gives, 0 when absent; malformed when it is not one or does not fit an int. */
    private static int whole(Object value, String what) {
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Long n)) {
            throw malformed(what + " that is not a whole number");
        }
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw malformed(what + " of " + n + ", out of range");
        }
        return n.intValue();
    }

    private static String text(Object value, String member) {
        if (value == null) {
            return "";
        }
        if (!(value instanceof String s)) {
            throw malformed(member + " is not a string");
        }
        return s;
    }

    static Invalid malformed(String what) {
        return new Invalid("manifest-record", "record", "The manifest record is malformed: " + what + ".");
    }

    static Invalid wrongBase(String base, String held) {
        return new Invalid("manifest-base", "base", "The delta is based on " + base + ", but " + held
                + ". A record was missed, or the delta belongs to another session; fold the records in order, or "
                + "record the manifest whole.");
    }
}
