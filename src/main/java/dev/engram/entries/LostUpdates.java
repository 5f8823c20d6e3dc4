package dev.engram.entries;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        return page(store, after, after, Integer.MAX_VALUE).lost();
    }

    /**
     * What {@code lost} discarded: the records of its entry before it, newest first from the one it replaced, back to
     * the version it was built on ({@link Change#prev}; for a write built on no version, back to a record that left
     * the entry absent, or to the entry's first record), looking through at most {@code most} of them. Nothing for a
     * write that is not a lost update.
     */
    public static Discarded discarded(Store store, Change lost, int most) {
        if (!lost.forked()) {
            return new Discarded(lost, Optional.empty(), List.of(), true);
        }
        Paged<JournalRecord> earlier = store.journalRange(JournalFilter.entry(lost.entry().scope(),
                lost.entry().name()), 0, lost.seq(), true, most, Long.MAX_VALUE);
        List<Change> overwritten = new ArrayList<>();
        for (JournalRecord r : earlier.items()) {
            Change c = (Change) r;
            boolean absent = c.entry().deleted();
            boolean base = lost.prev().isEmpty() ? absent : !absent && c.entry().hash().equals(lost.prev());
            if (base) {
                Collections.reverse(overwritten);
                return new Discarded(lost, lost.prev().isEmpty() ? Optional.empty() : Optional.of(c), overwritten,
                        true);
            }
            overwritten.add(c);
        }
        Collections.reverse(overwritten);
        boolean created = lost.prev().isEmpty() && !earlier.more();
        return new Discarded(lost, Optional.empty(), overwritten, created);
    }

    /** A page of {@link #find}: {@code next} is the {@code from} to read the next page with, {@code more} if any. */
    public record Page(List<LostUpdate> lost, long next, boolean more) {
        public Page {
            lost = List.copyOf(lost);
        }
    }

    /**
     * Up to {@code limit} of the lost updates {@link #find} reports for the window after {@code after}, those with
     * seq greater than {@code from}. The window is read from {@code after} every time, so a page judges each record
     * exactly as the whole list would.
     */
    public static Page page(Store store, long after, long from, int limit) {
        return page(store, after, from, limit, Long.MAX_VALUE);
    }

    /**
     * As {@link #page(Store, long, long, int)}, ending also before the lost update whose record would take the
     * page's {@link Change#bytes} over {@code maxBytes} (the first is always in it); the journal is read in pages
     * of at most {@code maxBytes} too.
     */
    public static Page page(Store store, long after, long from, int limit, long maxBytes) {
        Map<String, String> state = new HashMap<>();
        List<LostUpdate> lost = new ArrayList<>();
        long bytes = 0;
        long cursor = after;
        while (true) {
            Paged<JournalRecord> page = store.journalPage(cursor, PAGE, maxBytes);
            for (JournalRecord r : page.items()) {
                cursor = r.seq();
                if (!(r instanceof Change c)) {
                    continue; // another tier's record: no entry's update to lose
                }
                String key = c.entry().scope() + "/" + c.entry().name();
                String before = state.get(key);
                if (before == null && after == 0) {
                    before = "";
                }
                if (before != null && !c.prev().equals(before) && c.seq() > from) {
                    if (lost.size() == limit || (!lost.isEmpty() && bytes + c.bytes() > maxBytes)) {
                        return new Page(lost, lost.get(lost.size() - 1).change().seq(), true);
                    }
                    lost.add(new LostUpdate(c, before));
                    bytes += c.bytes();
                }
                state.put(key, c.entry().deleted() ? "" : c.entry().hash());
            }
            if (!page.more()) {
                return new Page(lost, lost.isEmpty() ? from : lost.get(lost.size() - 1).change().seq(), false);
            }
        }
    }
}
