package dev.engram.documents.stores;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.NotFound;
import java.security.SecureRandom;

/**
 * The ids of the Memory Stores API over Engram's: a memory store is {@code memstore_} and the Engram store's id (any
 * store a caller reaches is addressable so), a memory is its document's id ({@code mem_...}, stable across renames),
 * and a version {@code memver_} and the seq of its journal record.
 */
public final class MemoryStoreIds {

    public static final String STORE = "memstore_";
    public static final String VERSION = "memver_";
    public static final String MEMORY = "mem_";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

    private MemoryStoreIds() {
    }

    public static String ofStore(String store) {
        return STORE + store;
    }

    /** The Engram store of memory store {@code id}; {@link NotFound} when it names none, as a missing store. */
    public static String store(String id) {
        if (id == null || !id.startsWith(STORE) || !EntryRules.validName(id.substring(STORE.length()))) {
            throw NotFound.memoryStore(id == null ? "" : shown(id));
        }
        return id.substring(STORE.length());
    }

    /**
     * Whether {@code id} may name a memory: {@code mem_} and letters and digits, as a document's id is made. Any
     * other names none, and is answered so without asking the database (which cannot hold a NUL of it).
     */
    public static boolean isMemory(String id) {
        return id != null && id.length() > MEMORY.length() && id.length() <= MEMORY.length() + 64
                && id.startsWith(MEMORY) && id.substring(MEMORY.length()).chars()
                        .allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z');
    }

    public static String ofVersion(long seq) {
        return VERSION + seq;
    }

    /** The journal seq of version {@code id}; {@link NotFound} when it names none. */
    public static long version(String id) {
        if (id != null && id.startsWith(VERSION) && id.length() > VERSION.length() && id.length() <= VERSION.length()
                + 18 && id.substring(VERSION.length()).chars().allMatch(c -> c >= '0' && c <= '9')
                && id.charAt(VERSION.length()) != '0') {
            return Long.parseLong(id.substring(VERSION.length()));
        }
        throw NotFound.memoryVersion(id == null ? "" : shown(id));
    }

    /**
     * A new store's id: {@code prefix} (what the caller's grant covers, such as {@code acme-}; "" for any) and
     * {@code ms-} with 20 random letters and digits.
     */
    public static String newStore(String prefix) {
        StringBuilder id = new StringBuilder(prefix).append("ms-");
        for (int i = 0; i < 20; i++) {
            id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return id.toString();
    }

    private static String shown(String id) {
        String s = id.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
