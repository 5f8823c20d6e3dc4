package dev.engram.documents.stores;

import dev.engram.documents.DocumentHead;
import dev.engram.documents.DocumentPath;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * One page of a store's memories under a path prefix, by path in byte order: with {@code depth} 0 every memory below
 * the prefix; with depth n a memory more than n segments below it is rolled up into a {@code memory_prefix} item, the
 * directory of its first n segments (ending in {@code /}), listed once where its first memory would be. Memories the
 * caller may not read are left out, and so are prefixes it may read nothing under. Memory and prefix items both
 * count toward the page's size.
 */
public final class MemoryListing {

    /** The most memories read from the store at a time. */
    private static final int BATCH = 101;
    private static final String END = Character.toString(Character.MAX_CODE_POINT);

    /** Reads up to {@code n} memories under the prefix whose paths sort after {@code after}, by path. */
    @FunctionalInterface
    public interface Source {
        List<DocumentHead> after(String after, int n);
    }

    /** A memory, or (memory null) the directory {@code prefix} that holds deeper ones. */
    public record Item(DocumentHead memory, String prefix) {

        public boolean isPrefix() {
            return memory == null;
        }
    }

    /** The items of a page, and the position the next page starts after (null when none may follow). */
    public record Page(List<Item> items, String next) {

        public Page {
            items = List.copyOf(items);
        }
    }

    private final String prefix;
    private final int depth;
    private final Predicate<String> reads;

    /**
     * A listing of what lies under {@code prefix} (a directory ending in {@code /}), {@code depth} segments deep
     * (0: all), showing what {@code reads} (a path) allows.
     */
    public MemoryListing(String prefix, int depth, Predicate<String> reads) {
        this.prefix = prefix;
        this.depth = depth;
        this.reads = reads;
    }

    /** {@code value} (null: the whole store, {@code /}) if it is a path prefix: absolute, ending in {@code /}. */
    public static String prefix(String value) {
        if (value == null || value.equals("/")) {
            return "/";
        }
        if (!value.endsWith("/")) {
            throw new Invalid("path-prefix", "path_prefix", "The path prefix must end with / and matches whole "
                    + "segments, such as /notes/.");
        }
        DocumentPath.check(value.substring(0, value.length() - 1), "path_prefix");
        return value;
    }

    /** {@code value} (null: 0, every memory below the prefix) if it is a depth. */
    public static int depth(Integer value) {
        if (value != null && (value < 0 || value > DocumentPath.MAX_BYTES)) {
            throw new Invalid("depth", "depth", "The depth is 0 (every memory below the prefix) or how many "
                    + "segments below it to list (1: its direct children), not " + value + ".");
        }
        return value == null ? 0 : value;
    }

    /** The page of up to {@code size} items after position {@code after} (null: from the first). */
    public Page page(Source source, String after, int size) {
        List<Item> items = new ArrayList<>();
        String at = after == null ? "" : after;
        while (true) {
            List<DocumentHead> batch = source.after(at, BATCH);
            for (int i = 0; i < batch.size(); i++) {
                DocumentHead d = batch.get(i);
                String rolled = rolledInto(d.path());
                if (rolled == null) {
                    if (reads.test(d.path())) {
                        if (items.size() == size) {
                            return new Page(items, at);
                        }
                        items.add(new Item(d, null));
                    }
                    at = d.path();
                    continue;
                }
                if (reads.test(rolled + "x")) {
                    if (items.size() == size) {
                        return new Page(items, at);
                    }
                    items.add(new Item(null, rolled));
                }
                at = rolled + END;
                break;
            }
            if (batch.size() < BATCH && (batch.isEmpty() || !at.endsWith(END) || isLast(batch, at))) {
                return new Page(items, null);
            }
        }
    }

    /** Whether the batch held nothing after position {@code at}. */
    private static boolean isLast(List<DocumentHead> batch, String at) {
        return batch.get(batch.size() - 1).path().compareTo(at) < 0;
    }

    /** The directory a memory at {@code path} is rolled up into, or null when it is listed itself. */
    String rolledInto(String path) {
        if (depth == 0) {
            return null;
        }
        int end = prefix.length() - 1;
        for (int n = 0; n < depth; n++) {
            end = path.indexOf('/', end + 1);
            if (end < 0) {
                return null;
            }
        }
        return path.substring(0, end + 1);
    }
}
