package dev.engram.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Finds the writes in a journal that were built on something other than the state they replaced. */
public final class LostUpdates {

    private static final int PAGE = 500;

    private LostUpdates() {
    }

    /**
     * The records with {@code seq} greater than {@code after}, in order, whose {@code prev} is not the state the
     * journal left for that entry before them. With {@code after} above 0, the first record seen for an entry has
     * no predecessor in the window and is not reported.
     */
    public static List<LostUpdate> find(Store store, long after) {
        Map<String, String> state = new HashMap<>();
        List<LostUpdate> lost = new ArrayList<>();
        long cursor = after;
        while (true) {
            List<Change> page = store.journal(cursor, PAGE);
            for (Change c : page) {
                String key = c.entry().scope() + "/" + c.entry().name();
                String before = state.get(key);
                if (before == null && after == 0) {
                    before = "";
                }
                if (before != null && !c.prev().equals(before)) {
                    lost.add(new LostUpdate(c, before));
                }
                state.put(key, c.entry().deleted() ? "" : c.entry().hash());
                cursor = c.seq();
            }
            if (page.size() < PAGE) {
                return lost;
            }
        }
    }
}
