package dev.engram.contexts;

import dev.engram.contexts.messages.ReasoningItem;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.messages.ToolCall;
import java.util.List;

/**
 * One step of an agent's run: what it thought, the tool it called and what came back. A step is a tool step iff
 * its action has an id. Consecutive steps sharing a {@code responseGroup} above 0 were one model response with
 * several calls; 0 means standalone. There is no status field.
 *
 * @param userNudge a user message to show after the step, such as a correction; blank means none
 * @param untrusted whether the observation came from outside (web, files, MCP) and must be fenced when defense is on
 * @param cacheHash the tool-result cache's hash of the observation, or "" when it was not cached
 */
public record Step(String thought, String reasoningContent, List<ReasoningItem> reasoningItems, ToolCall action,
        String observation, boolean isError, int tokensUsed, String userNudge, long responseGroup,
        boolean untrusted, String cacheHash) {

    public Step {
        thought = Text.orEmpty(thought);
        reasoningContent = Text.orEmpty(reasoningContent);
        reasoningItems = reasoningItems == null ? List.of() : List.copyOf(reasoningItems);
        action = action == null ? ToolCall.NONE : action;
        observation = Text.orEmpty(observation);
        userNudge = Text.orEmpty(userNudge);
        cacheHash = Text.orEmpty(cacheHash);
    }

    /** A step that only thought (no call). */
    public static Step thought(String thought) {
        return new Step(thought, "", List.of(), ToolCall.NONE, "", false, 0, "", 0, false, "");
    }

    /** A tool step: {@code thought}, then {@code call}, which answered {@code observation}. */
    public static Step tool(String thought, ToolCall call, String observation) {
        return new Step(thought, "", List.of(), call, observation, false, 0, "", 0, false, "");
    }

    /** A step that carries only a user nudge (a live correction delivered between steps). */
    public static Step nudge(String userNudge) {
        return new Step("", "", List.of(), ToolCall.NONE, "", false, 0, userNudge, 0, false, "");
    }

    /** Whether this step called a tool. */
    public boolean isToolStep() {
        return action.present();
    }

    /** This step as the {@code index}th of a context: a call without an id gets one ({@link ToolCall#withIdAt}). */
    public Step withCallIdAt(int index) {
        ToolCall call = action.withIdAt(index);
        return call == action ? this : new Step(thought, reasoningContent, reasoningItems, call, observation, isError,
                tokensUsed, userNudge, responseGroup, untrusted, cacheHash);
    }

    /** This step with a user nudge. */
    public Step withNudge(String nudge) {
        return new Step(thought, reasoningContent, reasoningItems, action, observation, isError, tokensUsed, nudge,
                responseGroup, untrusted, cacheHash);
    }

    /** This step as a member of response group {@code group} (0: standalone). */
    public Step inGroup(long group) {
        return new Step(thought, reasoningContent, reasoningItems, action, observation, isError, tokensUsed,
                userNudge, group, untrusted, cacheHash);
    }

    /** This step marked untrusted (or not). */
    public Step withUntrusted(boolean isUntrusted) {
        return new Step(thought, reasoningContent, reasoningItems, action, observation, isError, tokensUsed,
                userNudge, responseGroup, isUntrusted, cacheHash);
    }

    /** This step with the cache hash of its observation. */
    public Step withCacheHash(String hash) {
        return new Step(thought, reasoningContent, reasoningItems, action, observation, isError, tokensUsed,
                userNudge, responseGroup, untrusted, hash);
    }

    /** This step with reasoning text and items. */
    public Step withReasoning(String reasoning, List<ReasoningItem> items) {
        return new Step(thought, reasoning, items, action, observation, isError, tokensUsed, userNudge,
                responseGroup, untrusted, cacheHash);
    }

    /** The text the running estimate counts for this step: thought, tool name, input and observation, spaced. */
    String accountedText() {
        return thought + " " + action.name() + " " + action.input() + " " + observation;
    }
}
