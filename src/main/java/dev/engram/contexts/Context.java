package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.kernel.ContextChanged;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Prompt;
import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.tokens.TokenTracker;
import dev.engram.contexts.messages.UntrustedContent;
import dev.engram.contexts.messages.VulnerableOutput;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One agent run's working memory held in memory: its configuration, system prompt, task, plan, prior conversation,
 * steps and token estimate, and the prompt built from them. After {@link #compact} the compacted messages stand for
 * every step so far (a frozen prefix) and later steps are rendered after them. Not thread-safe: one caller at a
 * time, as a store serializes writes to one context.
 */
public final class Context {

    /** What separates the cacheable part of a system prompt from the rest: NUL, {@code CACHE_BREAK}, NUL. */
    public static final String CACHE_BREAK = "\0CACHE_BREAK\0";

    private final ContextConfig config;
    private final TokenTracker tracker;
    private final CompactionStrategy strategy;
    private String systemPrompt = "";
    private String task = "";
    private List<ContentBlock> taskBlocks = List.of();
    private String plan = "";
    private List<Message> priorConversation = List.of();
    private String pendingInterjection = "";
    private List<Step> steps = new ArrayList<>();
    private List<Message> frozenPrefix;
    private int compactedThroughIndex;
    private String memoryBlock = "";
    private int memoryTokens;

    /**
     * A context under {@code config}, counting with {@code counter} and compacting with {@code strategy} (null: never
     * compacts).
     */
    public Context(ContextConfig config, TokenCounter counter, CompactionStrategy strategy) {
        this.config = Objects.requireNonNull(config, "config");
        this.tracker = new TokenTracker(Objects.requireNonNull(counter, "counter"));
        this.strategy = strategy;
    }

    /** A context under {@code config}, with its named counter and strategy; {@code summarizer} may be null. */
    public static Context of(ContextConfig config, Summarizer summarizer) {
        TokenCounter counter = TokenCounter.named(config.tokenCounter());
        return new Context(config, counter, CompactionStrategy.of(config.strategy(), summarizer, counter));
    }

    /** The configuration. */
    public ContextConfig config() {
        return config;
    }

    /** The running token estimate. */
    public TokenTracker tracker() {
        return tracker;
    }

    /** Sets the system prompt; it may hold {@link #CACHE_BREAK} markers, and blank parts are left out. */
    public void setSystemPrompt(String prompt) {
        systemPrompt = Text.orEmpty(prompt);
    }

    /** Sets the task as plain text, dropping any blocks set before. */
    public void setTask(String text) {
        task = Text.orEmpty(text);
        taskBlocks = List.of();
    }

    /** Sets the task with content blocks (text, images); no blocks means plain text, as {@link #setTask}. */
    public void setTaskWithBlocks(String text, List<ContentBlock> blocks) {
        task = Text.orEmpty(text);
        taskBlocks = blocks == null ? List.of() : List.copyOf(blocks);
    }

    /** Sets the plan, shown as a system message after the task; "" shows none. */
    public void setPlan(String text) {
        plan = Text.orEmpty(text);
    }

    /** Sets earlier exchanges shown verbatim between the system prompt and the task; null or empty clears them. */
    public void setPriorConversation(List<Message> messages) {
        priorConversation = messages == null ? List.of() : List.copyOf(messages);
    }

    /** Sets a user message shown last on every prompt until {@link #consumePendingInterjection}; blank clears. */
    public void setPendingInterjection(String message) {
        pendingInterjection = Text.orEmpty(message);
    }

    /** Retires the pending interjection once a model has seen it; does nothing when none is pending. */
    public void consumePendingInterjection() {
        pendingInterjection = "";
    }

    /** The pending interjection, or "". */
    public String pendingInterjection() {
        return pendingInterjection;
    }

    /** The steps so far, compacted or not (compaction never removes steps). */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /**
     * Appends a step (a call without an id given one, {@link ToolCall#withIdAt}) and adds its estimate (thought, tool name, input and observation, spaced) to the tracker. A
     * compacted prefix stays: the new step is rendered after it.
     */
    public void addStep(Step step) {
        Objects.requireNonNull(step, "step");
        Step added = step.withCallIdAt(steps.size());
        steps.add(added);
        tracker.addDelta(added.accountedText());
    }

    /**
     * Replaces the whole history with {@code seeded} (null or empty clears it): the compacted prefix goes, the
     * tracker restarts from 0 and counts each step as {@link #addStep} would. The pending interjection stays.
     */
    public void seedSteps(List<Step> seeded) {
        steps = new ArrayList<>();
        if (seeded != null) {
            for (Step step : seeded) {
                steps.add(step.withCallIdAt(steps.size()));
            }
        }
        frozenPrefix = null;
        compactedThroughIndex = 0;
        tracker.reset();
        for (Step step : steps) {
            tracker.addDelta(step.accountedText());
        }
    }

    /**
     * Shows {@code block}, the rendered memory block of the context's store, as a system message after the system
     * prompt's parts ("" shows none). It is not part of {@link #state}: the service renders it afresh for each
     * prompt. The estimate never holds it; the fill adds its tokens as it is now, so a block that changed between
     * two steps is counted as it will be sent.
     */
    public void showMemoryBlock(String block) {
        memoryBlock = Text.orEmpty(block);
        memoryTokens = memoryBlock.isEmpty() ? 0 : tracker.estimateMessages(List.of(Message.system(memoryBlock)));
    }

    /** The memory block the prompt shows, or "". */
    public String memoryBlock() {
        return memoryBlock;
    }

    /** The tokens the prompt uses: the estimate plus the memory block's message. */
    private int used() {
        return tracker.estimateTotal() + memoryTokens;
    }

    /** The effective maximum: window − output limit − margin; it may be 0 or less. */
    public int effectiveMax() {
        return config.effectiveMax();
    }

    /** The estimate as a percentage of the effective maximum; 100 when that maximum is 0 or less. */
    public double fillPercent() {
        int max = effectiveMax();
        return max <= 0 ? 100.0 : (double) used() / (double) max * 100;
    }

    /** The tokens left before the effective maximum, never below 0. */
    public int availableTokens() {
        return Math.max(0, effectiveMax() - used());
    }

    /** The fill now, with its status. */
    public FillCheck checkFill() {
        return FillCheck.of(used(), effectiveMax(), config.thresholds());
    }

    /**
     * Sets the estimate to the input tokens a provider reported for the last prompt, less the memory block's tokens
     * (never below 0), which the fill adds as the block is now; a negative count is refused.
     */
    public void correctTokenCount(int inputTokens) {
        if (inputTokens < 0) {
            throw new Invalid("input-tokens-negative", "input_tokens", "input_tokens is " + inputTokens
                    + "; send the input token count the provider reported (0 or more).");
        }
        tracker.correct(Math.max(0, inputTokens - memoryTokens));
    }

    /** The tool outputs the next prompt will prune; empty when pruning is off or waits under its threshold. */
    public List<VulnerableOutput> vulnerableOutputs() {
        return ToolOutputs.vulnerable(steps, config.pruning(), fillPercent());
    }

    /**
     * The prompt: the system prompt's parts, the memory block, the prior conversation, the task, the plan, the steps
     * (the compacted prefix, then the steps added since) and the pending interjection, in that order.
     */
    public List<Message> buildPrompt() {
        return assemblePrompt().messages();
    }

    /** The prompt as {@link #buildPrompt} builds it, with how many tool outputs it pruned and evicted. */
    public Prompt assemblePrompt() {
        List<Message> messages = new ArrayList<>();
        for (String part : systemPrompt.split(java.util.regex.Pattern.quote(CACHE_BREAK), -1)) {
            String trimmed = Text.trimSpace(part);
            if (!trimmed.isEmpty()) {
                messages.add(Message.system(trimmed));
            }
        }
        if (!memoryBlock.isEmpty()) {
            messages.add(Message.system(memoryBlock));
        }
        messages.addAll(priorConversation);
        if (!taskBlocks.isEmpty()) {
            messages.add(new Message("user", task, taskBlocks, "", List.of(), List.of(), ""));
        } else if (!task.isEmpty()) {
            messages.add(Message.user(task));
        }
        if (!plan.isEmpty()) {
            messages.add(Message.system(plan));
        }
        int from = 0;
        if (frozenPrefix != null) {
            messages.addAll(frozenPrefix);
            from = compactedThroughIndex;
        }
        LiveSteps live = new LiveSteps(steps, ToolOutputs.protectedIndices(steps, config.pruning(), fillPercent()),
                config);
        live.render(from, messages);
        if (Text.visible(pendingInterjection)) {
            messages.add(Message.user(Text.trimRight(pendingInterjection)));
        }
        return new Prompt(messages, live.pruned(), live.evicted());
    }

    /**
     * Compacts every step so far with the strategy into a prefix that stands for them, fences untrusted tool output
     * in it when defense is on, and sets the estimate to what the prompt now holds but the memory block (which the
     * fill adds). Empty when there is no strategy or no step; otherwise the fill before and after, even when nothing
     * shrank.
     */
    public Optional<CompactionResult> compact() {
        return prepareCompaction().map(this::land);
    }

    /**
     * The compaction of every step so far, computed without changing this context (the strategy may call a model):
     * {@link #land} applies it, here or on this context as a store holds it later. Empty when there is no strategy
     * or no step.
     */
    public Optional<Compaction> prepareCompaction() {
        if (strategy == null || steps.isEmpty()) {
            return Optional.empty();
        }
        List<Step> compacted = List.copyOf(steps);
        List<Message> prefix = new ArrayList<>(strategy.compact(compacted, effectiveMax()));
        if (config.injectionDefense()) {
            fenceUntrusted(prefix, compacted);
        }
        return Optional.of(new Compaction(compacted, prefix, checkFill().percent(), config, frozenPrefix,
                compactedThroughIndex, strategy.replaced(compacted.size())));
    }

    /**
     * Lands {@code compaction}: its prefix stands for the steps it compacted, and the steps appended since stay live
     * after it; the estimate becomes what the prompt's fixed part and the prefix count, plus each later step as
     * {@link #addStep} counts it, and the fill adds the memory block. Answers the fill when the compaction was
     * computed and the fill now (0 after when
     * the effective maximum is 0 or less). Throws {@link ContextChanged}, changing nothing, when this context is no
     * longer the one it was computed from: another configuration, other leading steps, or another compacted prefix.
     */
    public CompactionResult land(Compaction compaction) {
        String why = changedSince(compaction);
        if (why != null) {
            throw new ContextChanged(why);
        }
        frozenPrefix = compaction.prefix();
        compactedThroughIndex = compaction.steps().size();
        int max = effectiveMax();
        List<Message> base = new ArrayList<>();
        base.add(Message.system(systemPrompt));
        base.add(new Message("user", task, taskBlocks, "", List.of(), List.of(), ""));
        int estimate = tracker.estimateMessages(base);
        if (!plan.isEmpty()) {
            estimate += tracker.estimateMessages(List.of(Message.system(plan)));
        }
        estimate += tracker.estimateMessages(priorConversation);
        estimate += tracker.estimateMessages(frozenPrefix);
        tracker.correct(estimate);
        for (Step later : steps.subList(compactedThroughIndex, steps.size())) {
            tracker.addDelta(later.accountedText());
        }
        double after = max > 0 ? (double) (tracker.estimateTotal() + memoryTokens) / (double) max * 100 : 0;
        return new CompactionResult(compaction.beforePercent(), after);
    }

    /** Why {@code compaction} cannot land on this context, or null when it can. */
    private String changedSince(Compaction compaction) {
        if (!config.equals(compaction.config())) {
            return "it was reconfigured";
        }
        List<Step> compacted = compaction.steps();
        if (steps.size() < compacted.size() || !steps.subList(0, compacted.size()).equals(compacted)) {
            return "its steps were replaced";
        }
        if (compactedThroughIndex != compaction.basisThroughIndex()
                || !Objects.equals(frozenPrefix, compaction.basisPrefix())) {
            return "another compaction landed";
        }
        return null;
    }

    private static void fenceUntrusted(List<Message> prefix, List<Step> steps) {
        Map<String, String> sources = new HashMap<>();
        for (Step step : steps) {
            if (step.untrusted() && step.isToolStep()) {
                sources.put(step.action().id(), step.action().name());
            }
        }
        for (int i = 0; i < prefix.size(); i++) {
            Message message = prefix.get(i);
            if (message.role().equals("tool") && sources.containsKey(message.toolCallId())) {
                prefix.set(i, message.withContent(
                        UntrustedContent.wrap(message.content(), sources.get(message.toolCallId()))));
            }
        }
    }

    /** What this context holds, to save; {@link #restore} brings it back. */
    public ContextState state() {
        return new ContextState(systemPrompt, task, taskBlocks, plan, priorConversation, pendingInterjection, steps,
                frozenPrefix != null, frozenPrefix, compactedThroughIndex, tracker.lastKnownUsed(),
                tracker.pendingDelta());
    }

    /** A context as {@link #state} saved it, under {@code config} with {@code counter} and {@code strategy}. */
    public static Context restore(ContextConfig config, TokenCounter counter, CompactionStrategy strategy,
            ContextState state) {
        Context context = new Context(config, counter, strategy);
        context.systemPrompt = state.systemPrompt();
        context.task = state.task();
        context.taskBlocks = state.taskBlocks();
        context.plan = state.plan();
        context.priorConversation = state.priorConversation();
        context.pendingInterjection = state.pendingInterjection();
        context.steps = new ArrayList<>(state.steps());
        context.frozenPrefix = state.compacted() ? state.compactedPrefix() : null;
        context.compactedThroughIndex = state.compactedThroughIndex();
        context.tracker.restore(state.lastKnownUsed(), state.pendingDelta());
        return context;
    }

    /** The compacted prefix, or empty when the context was not compacted since its last seeding. */
    public Optional<List<Message>> compactedPrefix() {
        return Optional.ofNullable(frozenPrefix);
    }

    /** How many leading steps the compacted prefix stands for (0 when not compacted). */
    public int compactedThroughIndex() {
        return compactedThroughIndex;
    }
}
