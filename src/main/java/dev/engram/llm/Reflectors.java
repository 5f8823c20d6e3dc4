package dev.engram.llm;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.kernel.ReflectionFailed;
import dev.engram.ops.EngramConfig;
import dev.engram.memories.Bank;
import dev.engram.memories.Recall;
import dev.engram.memories.Reflected;
import dev.engram.memories.Reflection;
import dev.engram.memories.Reflector;
import dev.engram.memories.TopicReflector;
import dev.langchain4j.model.chat.ChatModel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The reflectors this replica offers, built once from {@code engram.reflect.*}: {@code deterministic} always,
 * {@code llm} when a model is configured. The default, for a reflect that names none, is
 * {@code engram.reflect.reflector} when set, else {@code llm} when a model is configured, else {@code deterministic};
 * only {@code llm} named (by the request or the setting) without a model is refused. Runs a reflection with at most {@code concurrency} at once.
 */
@ApplicationScoped
public class Reflectors {

    static final String HOW = "Set ENGRAM_REFLECT_LLM_MODEL (with ENGRAM_REFLECT_LLM_PROVIDER openai, anthropic or "
            + "ollama, ENGRAM_REFLECT_LLM_BASE_URL and ENGRAM_REFLECT_LLM_API_KEY as the provider needs) for the llm "
            + "reflector, or send {\"reflector\": \"deterministic\"} for the offline one (the default when no model "
            + "is configured and ENGRAM_REFLECT_REFLECTOR names none).";

    private final Reflector deterministic = new TopicReflector();
    private final Optional<Reflector> llm;
    private final String fallback;
    private final int maxFacts;
    private final Semaphore running;
    private final int concurrency;

    @Inject
    public Reflectors(EngramConfig config) {
        EngramConfig.Reflect r = config.reflect();
        this.llm = r.llm().model().map(model -> new ChatReflector(chatModel(r.llm(), model),
                r.llm().provider() + " model " + model));
        this.fallback = r.reflector().or(() -> llm.map(Reflector::name)).orElse(deterministic.name());
        this.maxFacts = r.maxFacts();
        this.concurrency = Math.max(1, r.concurrency());
        this.running = new Semaphore(concurrency);
        named(fallback);
    }

    /** The reflector a reflect that names none uses: {@code llm} or {@code deterministic}. */
    public String defaultName() {
        return fallback;
    }

    /** The chat model of the {@code llm} reflector (JSON answers where the provider can be asked for them). */
    static ChatModel chatModel(EngramConfig.Llm c, String model) {
        return ChatModels.of(c, model, true, "engram.reflect.llm");
    }

    /** Reflects {@code bank} with the reflector {@code name} (null: the default). */
    public Reflected reflect(Recall recall, Bank bank, String name) {
        Reflector reflector = named(name == null ? fallback : name);
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
}
