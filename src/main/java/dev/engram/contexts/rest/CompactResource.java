package dev.engram.contexts.rest;

import dev.engram.contexts.app.AnthropicForm;
import dev.engram.contexts.app.Conversations;
import dev.engram.contexts.app.OpenAiChatForm;
import dev.engram.problems.ReadOnly;
import dev.engram.rest.SummarizerJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.ConversationCompaction;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.Summarizer;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.llm.Summarizations;
import dev.engram.llm.Summarizers;
import dev.engram.kernel.Invalid;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
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
            Integer observationTruncate, Double distant, Double middle, Double recent, Integer maxSummarizeTokens,
            JsonNode summarizer) {

        StrategySettings settings() {
            return new StrategySettings(name, or0(keepFirst), or0(keepLast), or0(blockSize), or0(observationTruncate),
                    distant == null ? 0 : distant, middle == null ? 0 : middle, recent == null ? 0 : recent,
                    or0(maxSummarizeTokens), SummarizerJson.choice(summarizer));
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
        Compacted compacted = compacted(read.messages(), settings, counter, budget);
        List<Message> result = format.equals("openai-chat") ? compacted.messages()
                : userFirst(compacted.messages(), read);
        ObjectNode reply = JsonNodeFactory.instance.objectNode().put("format", format);
        if (format.equals("openai-chat")) {
            reply.set("messages", Conversations.openAiReply(result, read));
        } else {
            reply.setAll(Conversations.anthropicReply(result, read));
        }
        int after = counter.countMessages(result);
        reply.put("tokens_before", counter.countMessages(read.messages())).put("tokens_after", after)
                .put("budget_tokens", budget).put("budget_met", budget <= 0 || after <= budget)
                .put("summarized", compacted.summarized());
        if (settings.summarizes() && !compacted.summarized() && fallbacks(result, read) > 0
                && !settings.summarizer().kind().equals("none")) {
            reply.put("summary_error", NO_SUMMARIZER);
        }
        return reply;
    }

    /** What {@code summary_error} says when a summarizing strategy had no model to ask. */
    static final String NO_SUMMARIZER = "no summarizer is configured on this server "
            + "(ENGRAM_CONTEXT_SUMMARIZER_MODEL); the older messages were replaced by omission notes";

    /** The note put before a compacted Anthropic conversation that would otherwise start with an assistant turn. */
    static final String EARLIER_OMITTED = "[... earlier conversation omitted by compaction ...]";

    /** The compacted messages, and whether a model summarized. */
    private record Compacted(List<Message> messages, boolean summarized) {
    }

    /**
     * {@code result} made to start with a user turn when compaction made its first turn an assistant's (the Messages
     * API takes a user turn first): the summaries and notes before that turn become user messages, or, when there
     * are none, a user note says that earlier turns were omitted. Unchanged when it starts as the sent conversation.
     */
    private static List<Message> userFirst(List<Message> result, Conversations.Read read) {
        int first = ConversationCompaction.instructions(result);
        if (first >= result.size() || !result.get(first).role().equals("assistant")) {
            return result;
        }
        List<Message> sent = read.messages();
        int sentFirst = ConversationCompaction.instructions(sent);
        if (sentFirst < sent.size() && sent.get(sentFirst) == result.get(first)) {
            return result;
        }
        List<Message> out = new ArrayList<>(result);
        boolean moved = false;
        for (int i = 0; i < first; i++) {
            if (!read.sent().containsKey(out.get(i))) {
                out.set(i, Message.user(out.get(i).content()));
                moved = true;
            }
        }
        if (!moved) {
            out.add(first, Message.user(EARLIER_OMITTED));
        }
        return List.copyOf(out);
    }

    /** How many of the result's new messages are a summarizing strategy's fallback text. */
    private static long fallbacks(List<Message> result, Conversations.Read read) {
        return result.stream().filter(m -> !read.sent().containsKey(m)
                && m.content().endsWith("omitted: no summarizer ...]")).count();
    }

    /**
     * The messages compacted; a strategy that summarizes asks the summarizer its {@code summarizer} chooses (the
     * server's by default; none: the fallback texts), holding one of the replica's summarization places meanwhile.
     */
    private Compacted compacted(List<Message> messages, StrategySettings settings, TokenCounter counter,
            int budget) {
        Optional<Summarizer> summarizer = settings.summarizes() ? summarizers.chosen(settings.summarizer())
                : Optional.empty();
        if (summarizer.isEmpty()) {
            return new Compacted(ConversationCompaction.compact(messages, settings, null, counter, budget), false);
        }
        try (Summarizations.Run run = summarizations.start(summarizer.get())) {
            List<Message> result = ConversationCompaction.compact(messages, settings, run, counter, budget);
            return new Compacted(result, run.answered() > 0);
        }
    }
}
