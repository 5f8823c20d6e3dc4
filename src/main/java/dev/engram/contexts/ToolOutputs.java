package dev.engram.contexts;

import dev.engram.contexts.messages.InputHint;
import dev.engram.contexts.messages.VulnerableOutput;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which tool outputs are protected from pruning and mutation, over all steps of a context: none when pruning is
 * off; every tool step while the fill is under the pruning threshold; else the last N tool steps, the protected
 * tools, and every member of a response group that holds a protected step.
 */
final class ToolOutputs {

    private ToolOutputs() {
    }

    /** The indices (into {@code steps}) of protected tool steps, for a context at {@code fillPercent}. */
    static Set<Integer> protectedIndices(List<Step> steps, ContextConfig.Pruning pruning, double fillPercent) {
        Set<Integer> kept = new HashSet<>();
        if (!pruning.on()) {
            return kept;
        }
        List<Integer> toolSteps = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).isToolStep()) {
                toolSteps.add(i);
            }
        }
        if (belowThreshold(pruning, fillPercent)) {
            kept.addAll(toolSteps);
            return kept;
        }
        kept.addAll(toolSteps.subList(Math.max(0, toolSteps.size() - pruning.keepLastN()), toolSteps.size()));
        for (int i : toolSteps) {
            if (pruning.protectedTools().contains(steps.get(i).action().name())) {
                kept.add(i);
            }
        }
        Set<Long> groups = new HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).responseGroup() > 0 && kept.contains(i)) {
                groups.add(steps.get(i).responseGroup());
            }
        }
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).responseGroup() > 0 && groups.contains(steps.get(i).responseGroup())) {
                kept.add(i);
            }
        }
        return kept;
    }

    /** Whether pruning waits: a threshold is set and the fill is under it. */
    static boolean belowThreshold(ContextConfig.Pruning pruning, double fillPercent) {
        return pruning.thresholdPercent() > 0 && fillPercent < pruning.thresholdPercent();
    }

    /** The tool outputs the next prompt prunes, in order; empty when pruning is off, waits, or there are no steps. */
    static List<VulnerableOutput> vulnerable(List<Step> steps, ContextConfig.Pruning pruning, double fillPercent) {
        if (!pruning.on() || steps.isEmpty() || belowThreshold(pruning, fillPercent)) {
            return List.of();
        }
        Set<Integer> kept = protectedIndices(steps, pruning, fillPercent);
        List<VulnerableOutput> outputs = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            if (step.isToolStep() && !kept.contains(i)) {
                outputs.add(new VulnerableOutput(step.action().name(), InputHint.of(step.action().input())));
            }
        }
        return List.copyOf(outputs);
    }
}
