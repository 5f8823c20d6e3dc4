package dev.engram.stores.files;

import dev.engram.entries.EntryRules;

/**
 * Where each thing of a store lies in its archive. The reference store's layout at the root (a directory per scope,
 * {@code <name>.md} and {@code INDEX.md} in it, {@code journal.jsonl} and {@code .state.json}), and Engram's own
 * under {@code _engram/}, a name no scope can have (scopes are kebab-case), so a reader of the reference format
 * skips it as "not a scope".
 */
public final class Layout {

    public static final String JOURNAL = "journal.jsonl";
    public static final String STATE = ".state.json";
    public static final String INDEX = "INDEX.md";
    public static final String ENGRAM = "_engram";
    public static final String STORE = ENGRAM + "/store.json";
    public static final String ENGRAM_JOURNAL = ENGRAM + "/journal.jsonl";
    public static final String MEMORIES = ENGRAM + "/memories.jsonl";
    public static final String CONTEXTS = ENGRAM + "/contexts.jsonl";
    public static final String DOCUMENTS = ENGRAM + "/documents";

    /** What a member of an archive is. */
    public enum Kind {
        JOURNAL, STATE, INDEX, ENTRY, STORE, ENGRAM_JOURNAL, MEMORIES, CONTEXTS, DOCUMENT, DIRECTORY, IGNORED, UNKNOWN
    }

    private Layout() {
    }

    /** The path of entry {@code scope/name}'s file. */
    public static String entry(String scope, String name) {
        return scope + "/" + name + ".md";
    }

    /** The path of a document (its path starts with {@code /}). */
    public static String document(String path) {
        return DOCUMENTS + path;
    }

    /** What the member at {@code path} (checked, no leading {@code ./}, no trailing {@code /}) is. */
    public static Kind of(String path, boolean directory) {
        String[] s = path.split("/", -1);
        if (directory) {
            boolean scope = s.length == 1 && EntryRules.validName(s[0]);
            boolean engram = s[0].equals(ENGRAM) && (s.length == 1 || path.startsWith(DOCUMENTS));
            return scope || engram ? Kind.DIRECTORY : Kind.UNKNOWN;
        }
        if (s.length == 1) {
            return switch (path) {
                case JOURNAL -> Kind.JOURNAL;
                case STATE -> Kind.STATE;
                default -> path.equals(".lock") || path.startsWith(".lock.taken-") || path.startsWith(".tmp-")
                        ? Kind.IGNORED : Kind.UNKNOWN;
            };
        }
        if (s[0].equals(ENGRAM)) {
            return switch (path) {
                case STORE -> Kind.STORE;
                case ENGRAM_JOURNAL -> Kind.ENGRAM_JOURNAL;
                case MEMORIES -> Kind.MEMORIES;
                case CONTEXTS -> Kind.CONTEXTS;
                default -> path.startsWith(DOCUMENTS + "/") ? Kind.DOCUMENT : Kind.UNKNOWN;
            };
        }
        if (s.length != 2 || !EntryRules.validName(s[0])) {
            return Kind.UNKNOWN;
        }
        if (s[1].equals(INDEX)) {
            return Kind.INDEX;
        }
        if (s[1].startsWith(".tmp-")) {
            return Kind.IGNORED;
        }
        return s[1].endsWith(".md") && EntryRules.validName(s[1].substring(0, s[1].length() - 3)) ? Kind.ENTRY
                : Kind.UNKNOWN;
    }
}
