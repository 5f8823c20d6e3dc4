package dev.engram.tools;

import dev.engram.entries.SearchOrder;
import java.time.Duration;
import java.util.Optional;

/**
 * How the tools behave: how many entries and how many bytes of content a search shows when the call names no
 * limit, how long a patch keeps reading and writing again after concurrent writes, and the order a search lists
 * its matches in ({@link SearchOrder#NAME} unless the product asks for relevance).
 */
public record ToolOptions(int searchLimit, int searchBytes, Duration patchDeadline, SearchOrder searchOrder) {

    /** Entries a search shows when the call names no limit. */
    public static final int DEFAULT_SEARCH_LIMIT = 5;
    /** Content bytes one search result shows; matches past it are named, not shown. */
    public static final int DEFAULT_SEARCH_BYTES = 16 * 1024;
    /** The most entries a search call may ask for. */
    public static final int MAX_SEARCH_LIMIT = 50;
    /** How long a patch keeps retrying after concurrent writes, as a REST PATCH does. */
    public static final Duration DEFAULT_PATCH_DEADLINE = dev.engram.entries.Patch.DEFAULT_DEADLINE;

    public static final ToolOptions DEFAULT = new ToolOptions(DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_BYTES,
            DEFAULT_PATCH_DEADLINE, SearchOrder.NAME);

    public ToolOptions {
        searchLimit = searchLimit < 1 ? DEFAULT_SEARCH_LIMIT : searchLimit;
        searchBytes = searchBytes < 1 ? DEFAULT_SEARCH_BYTES : searchBytes;
        patchDeadline = patchDeadline == null || patchDeadline.isNegative() || patchDeadline.isZero()
                ? DEFAULT_PATCH_DEADLINE : patchDeadline;
        searchOrder = searchOrder == null ? SearchOrder.NAME : searchOrder;
    }

    /** These options with searches in {@code order}; these when it is empty (a call that names none). */
    public ToolOptions searchingIn(Optional<SearchOrder> order) {
        return order.isEmpty() || order.get() == searchOrder ? this
                : new ToolOptions(searchLimit, searchBytes, patchDeadline, order.get());
    }
}
