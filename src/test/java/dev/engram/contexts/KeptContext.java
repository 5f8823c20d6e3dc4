package dev.engram.contexts;

import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.VulnerableOutput;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A context as a scenario drives it, kept by a {@link ScenarioContract.Keeper} between operations: each change is
 * handed to the keeper, and every later operation works on the context the keeper gave back (the same object in
 * memory; one restored from what PostgreSQL kept otherwise), so a field the keeper forgets changes what a scenario
 * sees. Its counter and summarizer are behaviour, not state: they are given again at each restore, and the strategy
 * is built from the kept configuration.
 */
final class KeptContext {

    private final ScenarioContract.Keeper keeper;
    private final TokenCounter counter;
    private final Summarizer summarizer;
    private Context current;

    KeptContext(ScenarioContract.Keeper keeper, ContextConfig config, TokenCounter counter, Summarizer summarizer,
            String systemPrompt) {
        this.keeper = keeper;
        this.counter = counter;
        this.summarizer = summarizer;
        this.current = open(config, ContextState.EMPTY);
        change(c -> c.setSystemPrompt(systemPrompt));
    }

    private Context open(ContextConfig config, ContextState state) {
        return Context.restore(config, counter, CompactionStrategy.of(config.strategy(), summarizer, counter), state);
    }

    private void change(Consumer<Context> how) {
        how.accept(current);
        current = keeper.keep(current, this::open);
    }

    private <T> T changed(Function<Context, T> how) {
        T result = how.apply(current);
        current = keeper.keep(current, this::open);
        return result;
    }

    int effectiveMax() {
        return current.effectiveMax();
    }

    void setSystemPrompt(String text) {
        change(c -> c.setSystemPrompt(text));
    }

    void setTask(String text) {
        change(c -> c.setTask(text));
    }

    void setTaskWithBlocks(String text, List<ContentBlock> blocks) {
        change(c -> c.setTaskWithBlocks(text, blocks));
    }

    void setPlan(String text) {
        change(c -> c.setPlan(text));
    }

    void setPriorConversation(List<Message> messages) {
        change(c -> c.setPriorConversation(messages));
    }

    void setPendingInterjection(String text) {
        change(c -> c.setPendingInterjection(text));
    }

    void consumePendingInterjection() {
        change(Context::consumePendingInterjection);
    }

    void addStep(Step step) {
        change(c -> c.addStep(step));
    }

    /** Appends {@code steps} in one change, as one request of {@code POST .../steps} does. */
    void addSteps(List<Step> steps) {
        change(c -> steps.forEach(c::addStep));
    }

    void seedSteps(List<Step> steps) {
        change(c -> c.seedSteps(steps));
    }

    void correctTokenCount(int inputTokens) {
        change(c -> c.correctTokenCount(inputTokens));
    }

    Optional<CompactionResult> compact() {
        return changed(Context::compact);
    }

    List<Message> buildPrompt() {
        return current.buildPrompt();
    }

    FillCheck checkFill() {
        return current.checkFill();
    }

    int availableTokens() {
        return current.availableTokens();
    }

    int estimateTotal() {
        return current.tracker().estimateTotal();
    }

    List<VulnerableOutput> vulnerableOutputs() {
        return current.vulnerableOutputs();
    }

    /** The compacted prefix; a scenario that compacted expects one. */
    List<Message> compactedPrefix() {
        return current.compactedPrefix().orElseThrow();
    }
}
