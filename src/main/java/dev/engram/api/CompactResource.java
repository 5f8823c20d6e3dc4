package dev.engram.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.context.ConversationCompaction;
import dev.engram.context.Message;
import dev.engram.context.StrategySettings;
import dev.engram.context.Summarizer;
import dev.engram.context.TokenCounter;
import dev.engram.llm.Summarizations;
import dev.engram.llm.Summarizers;
import dev.engram.memory.Invalid;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Optional;

/**
 * Stateless compaction of a conversation the caller keeps ({@code POST /v1/compact}): the messages in OpenAI chat or
 * Anthropic form, compacted by a strategy (SPEC §5, count-based) and then to {@code budget_tokens}, answered in the
 * same form with {@code tokens_before} and {@code tokens_after} by the chosen counter (an anthropic {@code system}
 * counts as a leading system message). No store is read or written; any valid key may call it. The last message
 * always stays, and a message that stays is answered exactly as it was sent.
 */
@Path("/v1/compact")
@ReadOnly
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CompactResource {

    /** A strategy and its parameters; a parameter left out takes its default. */
    public record StrategyJson(String name, Integer keepFirst, Integer keepLast, Integer blockSize,
            Integer observationTruncate, Double distant, Double middle, Double recent, Integer maxSummarizeTokens) {

        StrategySettings settings() {
            return new StrategySettings(name, or0(keepFirst), or0(keepLast), or0(blockSize), or0(observationTruncate),
                    distant == null ? 0 : distant, middle == null ? 0 : middle, recent == null ? 0 : recent,
                    or0(maxSummarizeTokens));
        }

        private static int or0(Integer value) {
            return value == null ? 0 : value;
        }
    }

    /** The conversation, its format, the budget (0 or left out: none), the strategy and the token counter. */
    public record CompactBody(String format, JsonNode system, List<JsonNode> messages, Integer budgetTokens,
            StrategyJson strategy, String tokenCounter) {
    }

    @Inject
    Summarizers summarizers;

    @Inject
    Summarizations summarizations;

    @POST
    public ObjectNode compact(CompactBody body) {
        if (body == null || body.messages() == null) {
            throw new Invalid("messages-missing", "messages", "Send {\"format\": \"openai-chat\", \"messages\": "
                    + "[...], \"budget_tokens\": 8000, \"strategy\": {\"name\": \"sliding_window\"}}.");
        }
        String format = body.format() == null ? "" : body.format();
        if (!Conversations.FORMATS.contains(format)) {
            throw new Invalid("format-unknown", "format", "format is \"" + format + "\"; use openai-chat or "
                    + "anthropic.");
        }
        if (format.equals("openai-chat") && body.system() != null && !body.system().isNull()) {
            throw new Invalid("system-member", "system", "An openai-chat conversation has its system prompt as a "
                    + "message; send no top-level \"system\" (it is the anthropic format's).");
        }
        int budget = body.budgetTokens() == null ? 0 : body.budgetTokens();
        if (budget < 0) {
            throw new Invalid("budget-negative", "budget_tokens", "budget_tokens is " + budget + "; send a positive "
                    + "number of tokens, or 0 (or nothing) for no budget.");
        }
        StrategySettings settings = body.strategy() == null ? StrategySettings.named("") : body.strategy().settings();
        TokenCounter counter = TokenCounter.named(body.tokenCounter());
        Conversations.Read read = format.equals("openai-chat") ? OpenAiChatForm.read(body.messages())
                : AnthropicForm.read(body.system(), body.messages());
        List<Message> result = compacted(read.messages(), settings, counter, budget);
        ObjectNode reply = JsonNodeFactory.instance.objectNode().put("format", format);
        if (format.equals("openai-chat")) {
            reply.set("messages", Conversations.openAiReply(result, read));
        } else {
            reply.setAll(Conversations.anthropicReply(result, read));
        }
        return reply.put("tokens_before", counter.countMessages(read.messages()))
                .put("tokens_after", counter.countMessages(result));
    }

    /** The messages compacted; a summarizing strategy holds one of the replica's summarization places meanwhile. */
    private List<Message> compacted(List<Message> messages, StrategySettings settings, TokenCounter counter,
            int budget) {
        Optional<Summarizer> summarizer = summarizers.summarizer();
        if (!settings.summarizes() || summarizer.isEmpty()) {
            return ConversationCompaction.compact(messages, settings, summarizer.orElse(null), counter, budget);
        }
        try (Summarizations.Run run = summarizations.start(summarizer.get())) {
            return ConversationCompaction.compact(messages, settings, run, counter, budget);
        }
    }
}
