package dev.engram.contexts.app;

import dev.engram.rest.SummarizerJson;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.EffectiveStrategy;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ReasoningItem;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.Step;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.kernel.Invalid;
import java.util.List;

/**
 * The bodies of a context's routes, in the reference's field names in snake_case. Absent members take the core's
 * defaults (0 means the default there too); an absent {@code pruning} is the reference's default pruning (keep 3
 * above 50%), and {@code {"keep_last_n": 0}} turns it off.
 */
public final class ContextJson {

    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final List<String> ROLES = List.of("system", "user", "assistant", "tool");

    private ContextJson() {
    }

    /** {@code PUT .../contexts/{id}}. */
    public record Config(Model model, Integer safetyMarginPercent, Thresholds thresholds, Strategy strategy,
            Pruning pruning, Mutation historyMutation, Boolean injectionDefense, String tokenCounter,
            Memory memory) {

        public ContextConfig toConfig() {
            return new ContextConfig(model == null ? null : model.toModel(), n(safetyMarginPercent),
                    thresholds == null ? null : thresholds.toThresholds(),
                    strategy == null ? null : strategy.toSettings(),
                    pruning == null ? ContextConfig.Pruning.DEFAULT : pruning.toPruning(),
                    historyMutation == null ? null : historyMutation.toMutation(),
                    Boolean.TRUE.equals(injectionDefense), tokenCounter,
                    memory == null ? null : memory.toMemory());
        }
    }

    /** The memory block a prompt carries: the store's scopes to render, in order, and the render's bounds. */
    public record Memory(List<String> scopes, Integer maxTotalBytes, java.util.Map<String, Integer> scopeMaxBytes) {

        ContextConfig.Memory toMemory() {
            return new ContextConfig.Memory(scopes, n(maxTotalBytes), scopeMaxBytes);
        }
    }

    public record Model(Integer contextWindow, Integer outputLimit) {

        ContextConfig.Model toModel() {
            return new ContextConfig.Model(n(contextWindow), n(outputLimit));
        }
    }

    public record Thresholds(Integer predictivePercent, Integer warningPercent, Integer emergencyPercent) {

        ContextConfig.Thresholds toThresholds() {
            return new ContextConfig.Thresholds(n(predictivePercent), n(warningPercent), n(emergencyPercent));
        }
    }

    public record Strategy(String name, Integer keepFirst, Integer keepLast, Integer blockSize, Integer observationTruncate,
            Double distant, Double middle, Double recent, Integer maxSummarizeTokens, JsonNode summarizer) {

        StrategySettings toSettings() {
            return new StrategySettings(name, n(keepFirst), n(keepLast), n(blockSize), n(observationTruncate),
                    d(distant), d(middle), d(recent), n(maxSummarizeTokens), SummarizerJson.choice(summarizer));
        }
    }

    public record Pruning(Integer keepLastN, List<String> protectedTools, String placeholderText, Double thresholdPercent) {

        ContextConfig.Pruning toPruning() {
            return new ContextConfig.Pruning(n(keepLastN), protectedTools, placeholderText, d(thresholdPercent));
        }
    }

    public record Mutation(Integer toolResultEvictionStep, Boolean evictStepStatus, Boolean dedupRepeatedReads) {

        ContextConfig.HistoryMutation toMutation() {
            return new ContextConfig.HistoryMutation(n(toolResultEvictionStep), Boolean.TRUE.equals(evictStepStatus),
                    Boolean.TRUE.equals(dedupRepeatedReads));
        }
    }

    /**
     * A context as {@code GET} answers it: its configuration as it applies ({@link ConfigView}), fill, how many
     * steps, and its compaction.
     */
    public record View(String id, ConfigView config, FillCheck fill, int steps, boolean compacted,
            int compactedThroughIndex, String pendingInterjection) {
    }

    /**
     * A configuration as it applies: every value the context uses, a default where the request sent none or 0 (the
     * strategy's parameters, the pruning text), and only the parameters its strategy reads.
     */
    public record ConfigView(ContextConfig.Model model, int safetyMarginPercent, ContextConfig.Thresholds thresholds,
            StrategyView strategy, ContextConfig.Pruning pruning, ContextConfig.HistoryMutation historyMutation,
            boolean injectionDefense, String tokenCounter, ContextConfig.Memory memory) {

        public static ConfigView of(ContextConfig c) {
            ContextConfig.Pruning p = c.pruning();
            return new ConfigView(c.model(), c.safetyMarginPercent(), c.thresholds(),
                    StrategyView.of(EffectiveStrategy.of(c.strategy())),
                    new ContextConfig.Pruning(p.keepLastN(), p.protectedTools(), p.placeholder(), p.thresholdPercent()),
                    c.historyMutation(), c.injectionDefense(), c.tokenCounter(), c.memory());
        }
    }

    /** A strategy's parameters as they apply ({@link EffectiveStrategy}); those it does not read are left out. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record StrategyView(String name, Integer keepFirst, Integer keepLast, Integer blockSize,
            Integer observationTruncate, Double distant, Double middle, Double recent, Integer maxSummarizeTokens,
            dev.engram.contexts.SummarizerChoice summarizer) {

        public static StrategyView of(EffectiveStrategy e) {
            return new StrategyView(e.name(), e.keepFirst(), e.keepLast(), e.blockSize(), e.observationTruncate(),
                    e.distant(), e.middle(), e.recent(), e.maxSummarizeTokens(), e.summarizer());
        }
    }

    /**
     * What appending steps answers: the index of the first step appended ({@code from}), the steps the context holds
     * after it, the fill, what the append compacted ({@code null}: it did not try; else the compaction's answer, or
     * {@code {"compacted": false, "problem": ...}} when it could not), and the prompt when {@code ?prompt=} asked.
     */
    public record Appended(String id, int from, int steps, FillCheck fill, Object compaction,
            @JsonInclude(JsonInclude.Include.NON_NULL) Object prompt) {

        Appended completed(FillCheck now, Object compacted, Object shown) {
            return new Appended(id, from, steps, now, compacted, shown);
        }
    }

    /** A compaction an append ran that could not land, with the problem {@code POST .../compact} would answer. */
    public record CompactionRefused(boolean compacted, java.util.Map<String, Object> problem) {
    }

    /** {@code {"text": ...}}: a system prompt, a plan, an interjection. */
    public record Text(String text) {
    }

    /** {@code PUT .../task}: the task's text and its content blocks (none: plain text). */
    public record Task(String text, List<Block> blocks) {

        public List<ContentBlock> toBlocks() {
            return blocks == null ? List.of() : blocks.stream().map(Block::toBlock).toList();
        }
    }

    public record Block(String type, String text, String imageB64, String mediaType) {

        ContentBlock toBlock() {
            if (type == null || !List.of("text", "image").contains(type)) {
                throw new Invalid("block-type", "blocks.type", "A content block's type is \"text\" or \"image\".");
            }
            return new ContentBlock(type, text, imageB64, mediaType);
        }
    }

    /** A tool call: its id, its tool and its input (a JSON value, or JSON text in a string). */
    public record Action(String id, String name, JsonNode input) {

        ToolCall toCall() {
            return new ToolCall(id, name, inputText(input));
        }

        public static Action of(ToolCall call) {
            return new Action(call.id(), call.name(), call.input().isEmpty() ? null : parsed(call.input()));
        }
    }

    public record Reasoning(String id, String summary) {
    }

    /** One step, every field of the reference's Step; {@code cache} keeps the observation in the context's cache. */
    public record StepBody(String thought, String reasoningContent, List<Reasoning> reasoningItems, Action action,
            String observation, @JsonProperty("is_error") Boolean isError, Integer tokensUsed, String userNudge,
            Long responseGroup, Boolean untrusted, String cacheHash, Boolean cache) {

        public Step toStep() {
            if (responseGroup != null && responseGroup < 0) {
                throw new Invalid("response-group", "response_group", "response_group is 0 (standalone) or a "
                        + "positive group number.");
            }
            if (tokensUsed != null && tokensUsed < 0) {
                throw new Invalid("tokens-negative", "tokens_used", "tokens_used is a count of tokens, 0 or more.");
            }
            return new Step(thought, reasoningContent, reasoningItems == null ? List.of()
                    : reasoningItems.stream().map(r -> new ReasoningItem(r.id(), r.summary())).toList(),
                    action == null ? null : action.toCall(), observation, Boolean.TRUE.equals(isError),
                    n(tokensUsed), userNudge, responseGroup == null ? 0 : responseGroup,
                    Boolean.TRUE.equals(untrusted), cacheHash);
        }

        public static StepBody of(Step s) {
            return new StepBody(s.thought(), s.reasoningContent(), s.reasoningItems().stream()
                    .map(r -> new Reasoning(r.id(), r.summary())).toList(),
                    s.isToolStep() ? Action.of(s.action()) : null, s.observation(), s.isError(), s.tokensUsed(),
                    s.userNudge(), s.responseGroup(), s.untrusted(), s.cacheHash(), null);
        }
    }

    /** {@code POST} and {@code PUT .../steps}. */
    public record Steps(List<StepBody> steps) {
    }

    /** One message of a prior conversation, or of an assembled prompt. */
    public record MessageJson(String role, String content, List<Block> contentBlocks, String reasoningContent,
            List<Reasoning> reasoningItems, List<Action> toolCalls, String toolCallId) {

        public Message toMessage() {
            if (role == null || !ROLES.contains(role)) {
                throw new Invalid("role-unknown", "messages.role", "A message's role is one of "
                        + String.join(", ", ROLES) + ".");
            }
            return new Message(role, content, contentBlocks == null ? List.of()
                    : contentBlocks.stream().map(Block::toBlock).toList(), reasoningContent,
                    reasoningItems == null ? List.of() : reasoningItems.stream()
                            .map(r -> new ReasoningItem(r.id(), r.summary())).toList(),
                    toolCalls == null ? List.of() : toolCalls.stream().map(Action::toCall).toList(), toolCallId);
        }

        public static MessageJson of(Message m) {
            return new MessageJson(m.role(), m.content(), m.contentBlocks().stream()
                    .map(b -> new Block(b.type(), b.text(), b.imageB64(), b.mediaType())).toList(),
                    m.reasoningContent(), m.reasoningItems().stream().map(r -> new Reasoning(r.id(), r.summary()))
                            .toList(), m.toolCalls().stream().map(Action::of).toList(), m.toolCallId());
        }
    }

    /** {@code PUT .../prior-conversation}. */
    public record Messages(List<MessageJson> messages) {
    }

    /** {@code POST .../token-count}: the input tokens the provider reported for the last prompt. */
    public record TokenCount(Integer inputTokens) {
    }

    /** {@code POST .../tool-results}: an output to cache; with {@code file_path} it is a file read. */
    public record ToolResult(String toolName, String content, String filePath, Long fileMtimeNanos, Long fileSize) {
    }

    /** What caching an output answers. */
    public record Cached(String shortHash, String hash) {
    }

    private static int n(Integer value) {
        return value == null ? 0 : value;
    }

    private static double d(Double value) {
        return value == null ? 0 : value;
    }

    /** A tool input as JSON text: a string must hold JSON text itself; absent is "". */
    static String inputText(JsonNode input) {
        if (input == null || input.isNull()) {
            return "";
        }
        if (input.isTextual()) {
            String text = input.textValue();
            if (text.isEmpty()) {
                return "";
            }
            parsed(text);
            return text;
        }
        return input.toString();
    }

    private static JsonNode parsed(String text) {
        try {
            return PLAIN.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Invalid("tool-input-json", "action.input", "A tool call's input is JSON: send an object such "
                    + "as {\"path\": \"a.txt\"}, or JSON text in a string.");
        }
    }
}
