package dev.engram.stores.files;

import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Scope;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An entry's file, {@code <scope>/<name>.md}: a frontmatter of {@code name}, {@code updated} and the meta in byte
 * order of the keys between {@code ---} lines, then the content byte for byte (docs/filestore-format.md, "Entry
 * files"). Read more strictly than the reference reads a person's file, since an import must not guess: a block that
 * opens and never closes, a line without a colon, a key that is not a name or comes twice, an {@code updated} that is
 * not RFC 3339 or a {@code name} other than the file's is refused.
 */
public final class EntryFile {

    static final String RULE = "---\n";

    private EntryFile() {
    }

    /** The file of live entry {@code e}. */
    public static String write(Entry e) {
        StringBuilder b = new StringBuilder(e.content().length() + 128);
        b.append(RULE).append("name: ").append(e.name()).append('\n');
        b.append("updated: ").append(GoJson.time(e.updated())).append('\n');
        e.meta().forEach((k, v) -> b.append(k).append(':').append(v.isEmpty() ? "" : " " + v).append('\n'));
        return b.append(RULE).append(e.content()).toString();
    }

    /** What an entry file says: the entry (a draft of {@code scope/name}) and the time its frontmatter names. */
    public record Read(Entry draft, Optional<Instant> updated) {
    }

    /**
     * The entry the file {@code member} holds; {@link ArchiveRefused} naming the member when its frontmatter is
     * malformed or the entry breaks a rule of {@link EntryRules#checkShape}.
     */
    public static Read read(String member, Scope scope, String name, String text) {
        Map<String, String> meta = new TreeMap<>();
        Optional<Instant> updated = Optional.empty();
        String content = text;
        if (text.startsWith(RULE)) {
            int end;
            int body;
            if (text.startsWith(RULE, RULE.length())) {
                end = RULE.length();
                body = 2 * RULE.length();
            } else {
                int close = text.indexOf("\n" + RULE, RULE.length() - 1);
                if (close < 0) {
                    throw ArchiveRefused.invalid(member, "frontmatter-unclosed", member + " opens a frontmatter "
                            + "with --- and never closes it; end the block with a line ---, or remove the first line.");
                }
                end = close + 1;
                body = close + 1 + RULE.length();
            }
            for (String line : text.substring(RULE.length(), end).split("\n")) {
                Optional<Instant> named = line(member, name, line, meta);
                if (named.isPresent()) {
                    updated = named;
                }
            }
            content = text.substring(body);
        }
        Entry draft = Entry.draft(scope, name, content, meta);
        try {
            EntryRules.checkShape(draft);
        } catch (dev.engram.kernel.Invalid e) {
            throw ArchiveRefused.invalid(member, e.rule(), member + ": " + e.getMessage());
        }
        return new Read(draft, updated);
    }

    /** Reads one frontmatter line into {@code meta}; answers the time of an {@code updated} line. */
    private static Optional<Instant> line(String member, String name, String line, Map<String, String> meta) {
        int colon = line.indexOf(':');
        if (colon < 0) {
            throw ArchiveRefused.invalid(member, "frontmatter-line", member + " has the frontmatter line \""
                    + shown(line) + "\", which is not key: value; write it as key: value or remove it.");
        }
        String key = line.substring(0, colon).trim();
        String value = line.substring(colon + 1).trim();
        if (key.equals("name")) {
            if (!value.equals(name)) {
                throw ArchiveRefused.invalid(member, "frontmatter-name", member + " names itself " + shown(value)
                        + " in its frontmatter; the file name is the entry's name, so write name: " + name + ".");
            }
            return Optional.empty();
        }
        if (key.equals("updated")) {
            try {
                return Optional.of(JournalLine.time(value));
            } catch (DateTimeParseException e) {
                throw ArchiveRefused.invalid(member, "frontmatter-updated", member + " has updated: "
                        + shown(value) + ", which is not an RFC 3339 time such as 2026-09-20T10:00:03Z.");
            }
        }
        if (!EntryRules.validName(key)) {
            throw ArchiveRefused.invalid(member, "meta-key", member + " has the meta key " + shown(key) + ", which"
                    + " is not kebab-case (a-z, 0-9 and single hyphens, at most 64 bytes).");
        }
        if (meta.put(key, value) != null) {
            throw ArchiveRefused.invalid(member, "frontmatter-duplicate", member + " names the meta key " + key
                    + " twice; keep one.");
        }
        return Optional.empty();
    }

    static String shown(String s) {
        String t = s.length() > 60 ? s.substring(0, 60) + "..." : s;
        return t.replaceAll("[\\p{Cntrl}\\p{Cf}]", "?");
    }
}
