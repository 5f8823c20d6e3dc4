package dev.engram.tools;

/**
 * How the tools behave: how many entries and how many bytes of content a search shows when the call names no
 * limit, and how many times a patch reads and writes again after a concurrent write.
 */
public record ToolOptions(int searchLimit, int searchBytes, int patchAttempts) {

    /** Entries a search shows when the call names no limit. */
    public static final int DEFAULT_SEARCH_LIMIT = 5;
    /** Content bytes one search result shows; matches past it are named, not shown. */
    public static final int DEFAULT_SEARCH_BYTES = 16 * 1024;
    /** The most entries a search call may ask for. */
    public static final int MAX_SEARCH_LIMIT = 50;
    /** How many times a patch reads and writes again after a concurrent write, as a REST PATCH does. */
    public static final int DEFAULT_PATCH_ATTEMPTS = dev.engram.memory.Patch.DEFAULT_ATTEMPTS;

    public static final ToolOptions DEFAULT = new ToolOptions(DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_BYTES,
            DEFAULT_PATCH_ATTEMPTS);

    public ToolOptions {
        searchLimit = searchLimit < 1 ? DEFAULT_SEARCH_LIMIT : searchLimit;
        searchBytes = searchBytes < 1 ? DEFAULT_SEARCH_BYTES : searchBytes;
        patchAttempts = patchAttempts < 1 ? DEFAULT_PATCH_ATTEMPTS : patchAttempts;
    }
}
