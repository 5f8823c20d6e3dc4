package dev.engram.console.journal;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.ConsoleFormats;

/**
 * What a page of the journal shows around its rows: which view it is, its headings, the filter asked for, and the
 * links to its neighbours, each already a path with its query.
 *
 * @param lost whether this is the page of lost updates, else the timeline
 * @param scope the scope filtered by, or ""
 * @param name the entry's name filtered by, or ""
 * @param live the stream that follows this page live (its newest page, unfiltered), or null
 * @param newer the page of newer records, or null
 * @param older the page of older records, or null
 * @param newest the newest page of this view, or null when this is it
 * @param lookedFrom the first seq a page picked out of a range looked through, 0 when it was not picked out
 */
public record TimelineView(boolean lost, String title, String heading, String caption, String scope, String name,
        String live, String newer, String older, String newest, long lookedFrom, long lookedTo) {

    /** The page of {@code timeline} of store {@code store}, filtered by {@code scope} and {@code name} ("" for none). */
    static TimelineView of(String store, boolean lost, String scope, String name, Timeline timeline) {
        String base = path(store, lost);
        String filter = (scope.isEmpty() ? "" : "scope=" + ConsoleFormats.q(scope) + "&")
                + (name.isEmpty() ? "" : "name=" + ConsoleFormats.q(name) + "&");
        String heading = lost ? "Lost updates of " + store
                : !name.isEmpty() ? "History of " + scope + "/" + name
                : !scope.isEmpty() ? "Journal of scope " + scope : "Journal of " + store;
        String caption = lost || timeline.records().isEmpty() ? (lost ? "Lost updates" : "Records") + ", newest first"
                : "Records " + timeline.records().get(timeline.records().size() - 1).seq() + " to "
                + timeline.records().get(0).seq() + ", newest first";
        boolean unfiltered = !lost && scope.isEmpty();
        String live = timeline.newest() && unfiltered ? base + "/live?after=" + timeline.topSeq() : null;
        return new TimelineView(lost, lost ? "Lost updates" : heading, heading, caption, scope, name, live,
                timeline.newer() >= 0 ? base + "?" + filter + "after=" + timeline.newer() : null,
                timeline.older() > 0 ? base + "?" + filter + "before=" + timeline.older() : null,
                timeline.newest() ? null : filter.isEmpty() ? base : base + "?" + filter.substring(0,
                        filter.length() - 1),
                timeline.pickedOut() ? timeline.lookedFrom() : 0, timeline.pickedOut() ? timeline.lookedTo() : 0);
    }

    /** Whether the page shows one scope's or one entry's records. */
    public boolean filtered() {
        return !scope.isEmpty();
    }

    /** The entry's own page, when the page is its history. */
    public String entryPath(String store) {
        return name.isEmpty() ? null : ConsoleDoor.ROOT + "/stores/" + store + "/scopes/" + scope + "/entries/" + name;
    }

    private static String path(String store, boolean lost) {
        return ConsoleDoor.ROOT + "/stores/" + store + "/journal" + (lost ? "/lost" : "");
    }
}
