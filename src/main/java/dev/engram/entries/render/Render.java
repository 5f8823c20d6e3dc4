package dev.engram.entries.render;

import dev.engram.kernel.Budget;
import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
import dev.engram.entries.Listing;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a store's entries into the block a product puts in the model's instructions: a title; per scope, in the
 * order given, its heading, each entry that fits (in list order, a heading with its size, the limit and its
 * description, then its content), and a line naming what was left out; and last a summary with the counts, the
 * block's own size against the bound, and the entry limit. The summary is last because every write changes it,
 * and a prompt cache keeps the prefix before the entry a write touched.
 *
 * <p>The bound is on the joined block. The title, the summary (reserved at the widest its numbers can be) and one
 * heading per scope are taken off first; each scope then packs its entries into what is left (and into its cap),
 * skipping one that does not fit and trying the next, and holding room for the omission line when there will be
 * one. The output is a function of the entries and the bounds alone.
 */
public final class Render {

    static final String TITLE = "# Memory";
    private static final String NO_ENTRIES = "No entries.";
    private static final String OMIT_HEAD = "Not shown, over the block budget; fetch with memory_search: ";
    private static final int SEPARATOR_BYTES = Part.SEPARATOR.length();

    private Render() {
    }

    /** Renders {@code scopes} of {@code store}; {@link Budget} when the bounds cannot be met. */
    public static Rendered render(Store store, List<Scope> scopes, RenderOptions options) {
        checkScopes(scopes, options);
        Listing listing = store.listing(scopes);
        return render(listing.lists(), scopes, listing.maxEntryBytes(), options);
    }

    /**
     * The manifest of a turn on which the product left the whole block out (seed 000's {@code OmitBlock}): every
     * entry of the given lists' {@code scopes}, in the order a block would hold them, under omitted with
     * {@link ManifestEntry#OMIT_BLOCK}, and none under entries. Recorded for a session, it tells a reader the model
     * saw no memory on that turn, and a save that follows is anchored on its own read, as for an entry no block held.
     */
    public static Manifest omittedBlock(Map<Scope, List<Entry>> lists, List<Scope> scopes) {
        checkScopes(scopes, RenderOptions.DEFAULT);
        List<ManifestEntry> omitted = new ArrayList<>();
        for (Scope scope : scopes) {
            for (Entry e : lists.getOrDefault(scope, List.of())) {
                omitted.add(new ManifestEntry(scope, e.name(), e.hash(), e.size(), ManifestEntry.OMIT_BLOCK));
            }
        }
        return new Manifest(List.of(), omitted);
    }

    /**
     * Renders the given lists, each a scope's live entries by name, with the entry limit {@code limit}: the pure
     * function under {@link #render(Store, List, RenderOptions)}.
     */
    public static Rendered render(Map<Scope, List<Entry>> lists, List<Scope> scopes, int limit,
            RenderOptions options) {
        checkScopes(scopes, options);
        int max = options.maxTotalBytes();
        int total = 0;
        for (Scope scope : scopes) {
            total += lists.getOrDefault(scope, List.of()).size();
        }
        int fixed = fixed(lists, scopes, total, max, limit);
        if (max < 1 || fixed > max) {
            int needed = floor(fixed - 3 * digits(max));
            throw new Budget(max, needed, "The block needs at least " + needed + " bytes for its title, summary and "
                    + scopes.size() + " scope heading" + (scopes.size() == 1 ? "" : "s") + "; the bound is " + max
                    + ". Raise max_total_bytes to " + needed + " or more, render fewer scopes, or leave memory out "
                    + "of this call.");
        }

        List<ManifestEntry> shown = new ArrayList<>();
        List<ManifestEntry> omitted = new ArrayList<>();
        List<Part> parts = new ArrayList<>();
        parts.add(new Part(Part.TITLE_ID, TITLE));
        int spent = 0;
        int headings = Utf8.length(TITLE);
        for (Scope scope : scopes) {
            List<Entry> es = lists.getOrDefault(scope, List.of());
            String heading = heading(scope, es.isEmpty());
            parts.add(new Part(Part.scopeId(scope), heading));
            headings += cost(heading);
            if (es.isEmpty()) {
                continue;
            }
            int room = max - fixed - spent;
            Integer cap = options.scopeCaps().get(scope);
            if (cap != null) {
                room = Math.min(room, cap);
            }
            Sized sized = new Sized(es, limit);
            boolean[] in = new boolean[es.size()];
            int used = pack(sized.costs, room, in);
            if (!all(in)) {
                used = pack(sized.costs, room - omitLineReserve(sized), in);
            }
            List<Integer> dropped = new ArrayList<>();
            for (int j = 0; j < es.size(); j++) {
                Entry e = es.get(j);
                if (in[j]) {
                    parts.add(new Part(Part.entryId(scope, e.name()), sized.text(j)));
                    shown.add(new ManifestEntry(scope, e.name(), e.hash(), sized.sizes[j], ""));
                } else {
                    omitted.add(new ManifestEntry(scope, e.name(), e.hash(), sized.sizes[j], ManifestEntry.OMIT_BUDGET));
                    dropped.add(j);
                }
            }
            if (!dropped.isEmpty()) {
                String line = omitLine(sized, dropped, room - used);
                if (!line.isEmpty()) {
                    parts.add(new Part(Part.omittedId(scope), line));
                    used += cost(line);
                }
            }
            spent += used;
        }
        parts.add(new Part(Part.SUMMARY_ID, settledSummary(headings + spent, shown.size(), omitted.size(),
                fixed + spent, max, limit)));
        return new Rendered(parts, new Manifest(shown, omitted));
    }

    /** Refuses a bad or repeated scope, and a negative cap, before anything is read. */
    private static void checkScopes(List<Scope> scopes, RenderOptions options) {
        Set<Scope> seen = new HashSet<>();
        for (Scope scope : scopes) {
            EntryRules.checkScope(scope);
            if (!seen.add(scope)) {
                throw new Invalid("scope-repeated", "scope", "Scope " + scope + " is given twice; name each scope "
                        + "once, in the order the block should show them.");
            }
        }
        options.scopeCaps().forEach((scope, cap) -> {
            if (cap < 0) {
                throw new Budget(options.maxTotalBytes(), -1, "Scope " + scope + " is capped at " + cap
                        + " bytes; a cap is 0 or more.");
            }
        });
    }

    /** What the block holds whatever it shows, with the summary at its widest for the bound {@code max}. */
    private static int fixed(Map<Scope, List<Entry>> lists, List<Scope> scopes, int total, int max, int limit) {
        int fixed = Utf8.length(TITLE) + cost(summary(total, total, max, max, max, limit));
        for (Scope scope : scopes) {
            fixed += cost(heading(scope, lists.getOrDefault(scope, List.of()).isEmpty()));
        }
        return fixed;
    }

    /**
     * The smallest bound that holds what the block always holds, {@code base} plus the summary's three numbers
     * written at the bound's width: the least B with base + 3 * digits(B) <= B.
     */
    private static int floor(int base) {
        for (int d = 1; d <= 10; d++) {
            long candidate = Math.max(base + 3L * d, d == 1 ? 1 : (long) Math.pow(10, d - 1));
            if (digits((int) Math.min(candidate, Integer.MAX_VALUE)) == d) {
                return (int) candidate;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static int digits(int n) {
        return Integer.toString(n).length();
    }

    /** What a part other than the first adds to the block: its text and the separator before it. */
    private static int cost(String text) {
        return SEPARATOR_BYTES + Utf8.length(text);
    }

    private static String heading(Scope scope, boolean empty) {
        return empty ? "## " + scope.value() + Part.SEPARATOR + NO_ENTRIES : "## " + scope.value();
    }

    /**
     * A scope's entries with what the packing asks of each, worked out once: the content's size, the part's text,
     * and its cost in the block. The cost is summed from the heading's bytes and the content's known size, so no
     * content is scanned twice.
     */
    private static final class Sized {
        final List<Entry> entries;
        final int limit;
        final int[] sizes;
        final int[] costs;

        Sized(List<Entry> entries, int limit) {
            this.entries = entries;
            this.limit = limit;
            int n = entries.size();
            sizes = new int[n];
            costs = new int[n];
            String limitText = Integer.toString(limit);
            for (int j = 0; j < n; j++) {
                Entry e = entries.get(j);
                int size = e.size();
                String description = e.description();
                // "### <name> (<size> of <limit> bytes)" is ASCII; " — <description>" is 5 bytes and the text.
                int heading = 4 + e.name().length() + 2 + Integer.toString(size).length() + 4 + limitText.length() + 7
                        + (description.isEmpty() ? 0 : 5 + Utf8.length(description));
                sizes[j] = size;
                costs[j] = SEPARATOR_BYTES + heading + 2 + size - (e.content().endsWith("\n") ? 1 : 0);
            }
        }

        /** The part's text, built only for an entry the block shows. */
        String text(int j) {
            Entry e = entries.get(j);
            String content = e.content();
            return heading(e, sizes[j], limit) + "\n\n"
                    + (content.endsWith("\n") ? content.substring(0, content.length() - 1) : content);
        }

        String item(int j) {
            return omitItem(entries.get(j).name(), sizes[j]);
        }
    }

    private static String heading(Entry e, int size, int limit) {
        StringBuilder b = new StringBuilder("### ").append(e.name()).append(" (").append(size).append(" of ")
                .append(limit).append(" bytes)");
        if (!e.description().isEmpty()) {
            b.append(" — ").append(e.description());
        }
        return b.toString();
    }

    /**
     * Marks in {@code in} the entries that fit in {@code room}, in list order, skipping one that does not and going
     * on, and returns the bytes they take.
     */
    private static int pack(int[] costs, int room, boolean[] in) {
        int used = 0;
        for (int i = 0; i < costs.length; i++) {
            int n = costs[i];
            in[i] = used + n <= room;
            if (in[i]) {
                used += n;
            }
        }
        return used;
    }

    private static boolean all(boolean[] in) {
        for (boolean b : in) {
            if (!b) {
                return false;
            }
        }
        return true;
    }

    private static String omitItem(String name, int size) {
        return name + " (" + size + " bytes)";
    }

    private static String moreTail(int n) {
        return ", and " + n + " more";
    }

    /** The most the line naming a scope's omissions can take (names are ASCII, so chars are bytes). */
    private static int omitLineReserve(Sized sized) {
        int item = 0;
        for (int j = 0; j < sized.sizes.length; j++) {
            item = Math.max(item, sized.entries.get(j).name().length() + Integer.toString(sized.sizes[j]).length() + 9);
        }
        return cost(OMIT_HEAD) + item + moreTail(sized.sizes.length).length();
    }

    /**
     * Names the left-out entries within {@code room}, separator included: the names that fit, then how many more
     * there are; the count alone when no name fits; nothing when not even that does.
     */
    private static String omitLine(Sized sized, List<Integer> dropped, int room) {
        StringBuilder names = new StringBuilder();
        int listed = 0;
        int namesBytes = 0;
        for (int i = 0; i < dropped.size(); i++) {
            String piece = (listed > 0 ? ", " : "") + sized.item(dropped.get(i));
            int rest = dropped.size() - i - 1;
            int tail = rest > 0 ? moreTail(rest).length() : 0;
            int pieceBytes = Utf8.length(piece);
            if (cost(OMIT_HEAD) + namesBytes + pieceBytes + tail > room) {
                break;
            }
            names.append(piece);
            namesBytes += pieceBytes;
            listed++;
        }
        if (listed == 0) {
            String count = "Not shown, over the block budget: " + dropped.size() + " entries.";
            return cost(count) <= room ? count : "";
        }
        int rest = dropped.size() - listed;
        return OMIT_HEAD + names + (rest > 0 ? moreTail(rest) : "");
    }

    /** The summary: counts, the block's size against the bound (free padded to the bound's width), the limit. */
    private static String summary(int shown, int omitted, int size, int free, int max, int limit) {
        String freeText = String.format("%" + digits(max) + "d", free);
        return "Entries: " + shown + " shown, " + omitted + " omitted. Block: " + size + " of " + max + " bytes ("
                + freeText + " free). Entry limit: " + limit + " bytes.";
    }

    /**
     * The summary that states its own block's size: a fixed point reached from the reserved width, each pass no
     * wider than the one before, and every pass inside the bound. {@code before} is the bytes of the parts before
     * it, summed from their costs as they were placed, so the block is not joined and scanned again to be measured.
     */
    private static String settledSummary(int before, int shown, int omitted, int reserved, int max, int limit) {
        int rest = before + SEPARATOR_BYTES;
        int size = reserved;
        String last = "";
        for (int pass = 0; pass < 8; pass++) {
            last = summary(shown, omitted, size, max - size, max, limit);
            int n = rest + Utf8.length(last);
            if (n == size) {
                break;
            }
            size = n;
        }
        return last;
    }
}
