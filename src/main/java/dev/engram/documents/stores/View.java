package dev.engram.documents.stores;

import dev.engram.kernel.Invalid;

/**
 * How much of a memory or version an answer holds: {@code basic} leaves the content out (null), {@code full}
 * includes it. Listings default to basic and retrieval to full; a full listing page holds at most
 * {@value #FULL_PAGE} items.
 */
public enum View {
    BASIC, FULL;

    /** The most items a page holds when it asks for none. */
    public static final int DEFAULT_PAGE = 20;
    /** The most items a page may ask for. */
    public static final int MAX_PAGE = 100;
    /** The most items a page of the full view holds. */
    public static final int FULL_PAGE = 20;

    /** The view {@code value} names, {@code otherwise} when it is null; else {@link Invalid}. */
    public static View of(String value, View otherwise) {
        if (value == null) {
            return otherwise;
        }
        switch (value) {
            case "basic":
                return BASIC;
            case "full":
                return FULL;
            default:
                throw new Invalid("view", "view", "The view is basic (no content) or full (with content), not \""
                        + value.replaceAll("[^\\x20-\\x7e]", "?") + "\".");
        }
    }

    /** The items a page of this view holds when {@code limit} (null: none) is asked: 1 to 100, full at most 20. */
    public int pageSize(Integer limit) {
        if (limit != null && (limit < 1 || limit > MAX_PAGE)) {
            throw new Invalid("limit", "limit", "The limit is " + limit + "; ask for 1 to " + MAX_PAGE
                    + " items a page.");
        }
        int size = limit == null ? DEFAULT_PAGE : limit;
        return this == FULL ? Math.min(size, FULL_PAGE) : size;
    }

    public boolean full() {
        return this == FULL;
    }
}
