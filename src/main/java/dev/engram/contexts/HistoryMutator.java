package dev.engram.contexts;

import java.util.List;

/**
 * The rewrite of an old tool output on every prompt build, first rule first: a checklist update is evicted; a
 * cached output older than the eviction age becomes a cache reference; a cached output whose hash an earlier step
 * already has becomes a reference. Protected tools are exempt. Nothing is lost: the cache keeps the full output.
 */
final class HistoryMutator {

    /** What an evicted checklist update becomes. */
    static final String CHECKLIST_EVICTED = "[checklist update — evicted]";
    /** The tools whose outputs are checklist bookkeeping (the second is the legacy name). */
    static final List<String> CHECKLIST_TOOLS = List.of("update_checklist", "set_step_status");

    private HistoryMutator() {
    }

    /** The reference an evicted output becomes; {@code N} is literal, for the model to choose. */
    static String reference(String hash) {
        return "[Result evicted to cache. Use tool_result_read(hash=\"" + hash
                + "\", start_line=1, num_lines=N) to retrieve the full content.]";
    }

    /** The observation of {@code steps[index]} after mutation: {@code observation} itself when no rule applies. */
    static String apply(List<Step> steps, int index, String observation, ContextConfig.HistoryMutation mutation,
            ContextConfig.Pruning pruning) {
        Step step = steps.get(index);
        String tool = step.action().name();
        if (pruning.protectedTools().contains(tool)) {
            return observation;
        }
        if (mutation.evictStepStatus() && CHECKLIST_TOOLS.contains(tool)) {
            return CHECKLIST_EVICTED;
        }
        String hash = step.cacheHash();
        if (mutation.toolResultEvictionStep() > 0 && !hash.isEmpty()
                && steps.size() - index > mutation.toolResultEvictionStep()) {
            return reference(hash);
        }
        if (mutation.dedupRepeatedReads() && !hash.isEmpty() && earlier(steps, index, hash)) {
            return reference(hash);
        }
        return observation;
    }

    private static boolean earlier(List<Step> steps, int index, String hash) {
        for (int i = 0; i < index; i++) {
            if (steps.get(i).cacheHash().equals(hash)) {
                return true;
            }
        }
        return false;
    }
}
