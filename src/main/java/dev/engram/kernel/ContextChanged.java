package dev.engram.kernel;

/**
 * A compaction that cannot land because the context changed in a way its prefix depends on while it was computed:
 * its steps were replaced, it was reconfigured, or another compaction landed. Steps appended since are not a change
 * of that kind. Nothing was written; computing the compaction again from the context as it is now will do.
 */
public final class ContextChanged extends EngramException {

    /** A compaction refused because {@code why} (such as "its steps were replaced"). */
    public ContextChanged(String why) {
        super("The context changed while it was being compacted (" + why + "), so the compaction was not saved and "
                + "nothing was written. Compact it again: the compaction is computed from the context as it is then.");
    }
}
