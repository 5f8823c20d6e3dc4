package dev.engram.memories;

import java.util.List;

/**
 * What a reflection did: observations created and observations that replaced an older one ({@code updated}), the
 * facts it reviewed, the new observations' ids, the reflector chosen (the one that answered, or would have when too few facts meant it was not asked) and a note
 * ("" or why nothing was asked).
 */
public record Reflected(int created, int updated, int reviewed, List<String> newIds, String reflector, String note) {

    public Reflected {
        newIds = List.copyOf(newIds);
    }
}
