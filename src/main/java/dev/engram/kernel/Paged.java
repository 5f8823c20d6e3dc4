package dev.engram.kernel;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * One page of a listing bounded twice: at most a number of items, and at most a number of bytes of what they carry
 * (an entry's content, a record's content or note). The first item is always in the page, however large, so that
 * paging always moves on; {@code more} says that items follow it.
 *
 * @param items the page's items, in order
 * @param more whether more items follow the last one
 */
public record Paged<T>(List<T> items, boolean more) {

    public Paged {
        items = List.copyOf(items);
    }

    /**
     * The page in {@code fetched} (the items from the page's start on, at least one more than the page holds when
     * more follow): up to {@code limit} items, ending before the item that would take their {@code bytes} over
     * {@code maxBytes}.
     */
    public static <T> Paged<T> of(List<T> fetched, int limit, long maxBytes, ToLongFunction<T> bytes) {
        long total = 0;
        int n = 0;
        while (n < fetched.size() && n < limit) {
            long size = bytes.applyAsLong(fetched.get(n));
            if (n > 0 && total + size > maxBytes) {
                break;
            }
            total += size;
            n++;
        }
        return new Paged<>(fetched.subList(0, n), n < fetched.size());
    }
}
