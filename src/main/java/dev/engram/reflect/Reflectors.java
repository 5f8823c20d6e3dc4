package dev.engram.reflect;

import dev.engram.memory.Invalid;
import dev.engram.memory.Limited;
import dev.engram.memory.ReflectionFailed;
import dev.engram.ops.EngramConfig;
import dev.engram.recall.Bank;
import dev.engram.recall.Recall;
import dev.engram.recall.Reflected;
import dev.engram.recall.Reflection;
import dev.engram.recall.Reflector;
import dev.engram.recall.TopicReflector;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The reflectors this replica offers, built once from {@code engram.reflect.*}: {@code deterministic} always,
 * {@code llm} when a model is configured. Runs a reflection with at most {@code concurrency} at once.
 */
@ApplicationScoped
public class Reflectors {

    static final String HOW = "Set ENGRAM_REFLECT_LLM_MODEL (with ENGRAM_REFLECT_LLM_PROVIDER openai, anthropic or "
            + "ollama, ENGRAM_REFLECT_LLM_BASE_URL and ENGRAM_REFLECT_LLM_API_KEY as the provider needs) for the llm "
            + "reflector, or send {\"reflector\": \"deterministic\"} for the offline one (or make it the default with "
            + "ENGRAM_REFLECT_REFLECTOR=deterministic).";

    private final Reflector deterministic = new TopicReflector();
    private final Optional<Reflector> llm;
    private final Optional<String> fallback;
    private final int maxFacts;
    private final Semaphore running;
    private final int concurrency;

    @Inject
    public Reflectors(EngramConfig config) {
        EngramConfig.Reflect r = config.reflect();
        this.llm = r.llm().model().map(model -> new ChatReflector(chatModel(r.llm(), model),
                r.llm().provider() + " model " + model));
        this.fallback = r.reflector().or(() -> llm.map(Reflector::name));
        this.maxFacts = r.maxFacts();
        this.concurrency = Math.max(1, r.concurrency());
        this.running = new Semaphore(concurrency);
        fallback.ifPresent(this::named);
    }

    /** Reflects {@code bank} with the reflector {@code name} (null: the default). */
    public Reflected reflect(Recall recall, Bank bank, String name) {
        Reflector reflector = named(name == null ? fallback.orElse(null) : name);
        if (!running.tryAcquire()) {
            throw new Limited(Limited.Kind.CAPACITY, "reflections", concurrency, 5,
                    "This replica is running as many reflections as it may; retry in a few seconds.");
        }
        try {
            return Reflection.reflect(recall, bank, reflector, maxFacts, Instant.now());
        } finally {
            running.release();
        }
    }

    private Reflector named(String name) {
        if (name == null) {
            throw new ReflectionFailed(ReflectionFailed.Kind.UNCONFIGURED, "", "No reflector is configured. " + HOW);
        }
        switch (name) {
            case "deterministic":
                return deterministic;
            case "llm":
                return llm.orElseThrow(() -> new ReflectionFailed(ReflectionFailed.Kind.UNCONFIGURED, "llm",
                        "The llm reflector has no model configured. " + HOW));
            default:
                throw new Invalid("reflector-unknown", "reflector", "There is no reflector \"" + name + "\"; "
                        + "name llm or deterministic.");
        }
    }

    /** The chat model of {@code provider}; one retry, the configured timeout and answer bound. */
    static ChatModel chatModel(EngramConfig.Llm c, String model) {
        switch (c.provider().toLowerCase(Locale.ROOT)) {
            case "openai":
                return OpenAiChatModel.builder().modelName(model).baseUrl(c.baseUrl().orElse(null))
                        .apiKey(c.apiKey().orElse("none")).timeout(c.timeout()).maxRetries(1)
                        .maxTokens(c.maxTokens()).temperature(0.0).build();
            case "anthropic":
                return AnthropicChatModel.builder().modelName(model).baseUrl(c.baseUrl().orElse(null))
                        .apiKey(c.apiKey().orElse("none")).timeout(c.timeout()).maxRetries(1)
                        .maxTokens(c.maxTokens()).temperature(0.0).build();
            case "ollama":
                return OllamaChatModel.builder().modelName(model)
                        .baseUrl(c.baseUrl().orElse("http://localhost:11434")).timeout(c.timeout()).maxRetries(1)
                        .responseFormat(ResponseFormat.JSON).temperature(0.0).build();
            default:
                throw new IllegalStateException("engram.reflect.llm.provider is \"" + c.provider() + "\"; it takes "
                        + "openai, anthropic or ollama.");
        }
    }
}
