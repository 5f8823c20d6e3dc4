package dev.engram.console.journal;

import dev.engram.entries.JournalFilter;
import dev.engram.entries.Store;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One page of a store's journal as the console shows it, newest first, and the cursors of the pages beside it: the
 * page before a seq (older records), after one (newer records), or the newest. Every record, or one entry's, is read
 * over an index, no more than the page; a scope's records and the lost updates are picked out of at most
 * {@value #SPAN} of the store's records a page, so that no page reads the whole of a long journal, and the page says
 * which records it looked through.
 *
 * @param records the page's records, newest first
 * @param older the {@code before} of the page of older records, or 0 when there is none
 * @param newer the {@code after} of the page of newer records, or -1 when there is none
 * @param newest whether this is the newest page (no cursor asked for)
 * @param lookedFrom for a page picked out of a range, the first seq it looked through; 0 otherwise
 * @param lookedTo for a page picked out of a range, the last seq it looked through; 0 otherwise
 */
record Timeline(List<JournalRecord> records, long older, long newer, boolean newest, long lookedFrom,
        long lookedTo) {

    /** The most records of the store's journal a page of a scope's records or of lost updates looks through. */
    static final long SPAN = 5_000;

    Timeline {
        records = List.copyOf(records);
    }

    /**
     * The page of {@code filter}'s records of {@code store}: after {@code after} when it is not negative (the records
     * just newer than it), else before {@code before} when it is positive, else the newest; at most {@code size}
     * records and {@code maxBytes} of their content.
     */
    static Timeline read(Store store, JournalFilter filter, long before, long after, int size, long maxBytes) {
        boolean picked = !filter.all() && !filter.oneEntry();
        long top = picked ? newestSeq(store) : Long.MAX_VALUE - 1;
        if (after >= 0) {
            long end = picked ? Math.min(after + SPAN, top) + 1 : Long.MAX_VALUE;
            Paged<JournalRecord> page = store.journalRange(filter, after, end, false, size, maxBytes);
            List<JournalRecord> records = new ArrayList<>(page.items());
            Collections.reverse(records);
            long newer = page.more() ? records.get(0).seq() : picked && end - 1 < top ? end - 1 : -1;
            long older = after == 0 ? 0 : records.isEmpty() ? after + 1 : records.get(records.size() - 1).seq();
            return new Timeline(records, older, newer, false, picked ? after + 1 : 0, picked ? end - 1 : 0);
        }
        long end = before > 0 ? before : Long.MAX_VALUE;
        long start = picked ? Math.max(0, Math.min(end - 1, top) - SPAN) : 0;
        Paged<JournalRecord> page = store.journalRange(filter, start, end, true, size, maxBytes);
        List<JournalRecord> records = page.items();
        long older = page.more() ? records.get(records.size() - 1).seq() : start > 0 ? start + 1 : 0;
        long newer = before <= 0 ? -1 : records.isEmpty() ? end - 1 : records.get(0).seq();
        return new Timeline(records, older, newer, before <= 0, picked ? start + 1 : 0,
                picked ? Math.min(end - 1, top) : 0);
    }

    /** The seq of the store's newest record, 0 when its journal is empty: one record read over the primary key. */
    static long newestSeq(Store store) {
        List<JournalRecord> newest = store.journalRange(JournalFilter.ALL, 0, Long.MAX_VALUE, true, 1, 0).items();
        return newest.isEmpty() ? 0 : newest.get(0).seq();
    }

    /** The seq of the page's newest record, or 0 when it holds none: where a live follower of it starts. */
    long topSeq() {
        return records.isEmpty() ? 0 : records.get(0).seq();
    }

    /** Whether the page was picked out of a range of the journal, which it names. */
    boolean pickedOut() {
        return lookedTo > 0 && lookedFrom <= lookedTo;
    }
}
