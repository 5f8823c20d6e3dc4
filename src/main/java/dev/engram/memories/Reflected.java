package dev.engram.memories;

import java.util.List;

/**
 * What a reflection did: observations created and observations that replaced an older one ({@code updated}), the
 * facts it reviewed, the new observations' ids, the reflector chosen (the one that answered, or would have when too
 * few facts meant it was not asked) and a note ("" or why nothing was asked).
 *
 * @param superseded the ids of the older observations the new ones replaced, in the order of {@code newIds}
 * @param waiting how many further new facts wait for the next reflection, over what one reflection sends
 */
public record Reflected(int created, int updated, int reviewed, List<String> newIds, List<String> superseded,
        int waiting, String reflector, String note) {

    public Reflected {
        newIds = List.copyOf(newIds);
        superseded = List.copyOf(superseded);
    }

    /** A reflection that replaced nothing and left no fact waiting. */
    public Reflected(int created, int updated, int reviewed, List<String> newIds, String reflector, String note) {
        this(created, updated, reviewed, newIds, List.of(), 0, reflector, note);
    }
}
