package dev.engram.llm;

import dev.engram.ops.EngramConfig;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.util.Locale;

/**
 * The chat models Engram calls (reflection, the context summarizer), built from one {@link EngramConfig.Llm}
 * settings group: one retry, the configured timeout and answer bound, temperature 0. An unknown provider fails at
 * startup, naming the setting.
 */
public final class ChatModels {

    private ChatModels() {
    }

    /**
     * The chat model {@code model} of {@code settings}' provider; {@code json} asks Ollama's native API for a JSON
     * answer (the others are told so in the prompt). {@code prefix} names the settings group in errors, such as
     * {@code engram.reflect.llm}.
     */
    public static ChatModel of(EngramConfig.Llm settings, String model, boolean json, String prefix) {
        switch (settings.provider().toLowerCase(Locale.ROOT)) {
            case "openai":
                return OpenAiChatModel.builder().modelName(model).baseUrl(settings.baseUrl().orElse(null))
                        .apiKey(settings.apiKey().orElse("none")).timeout(settings.timeout()).maxRetries(1)
                        .maxTokens(settings.maxTokens()).temperature(0.0).build();
            case "anthropic":
                return AnthropicChatModel.builder().modelName(model).baseUrl(settings.baseUrl().orElse(null))
                        .apiKey(settings.apiKey().orElse("none")).timeout(settings.timeout()).maxRetries(1)
                        .maxTokens(settings.maxTokens()).temperature(0.0).build();
            case "ollama":
                OllamaChatModel.OllamaChatModelBuilder ollama = OllamaChatModel.builder().modelName(model)
                        .baseUrl(settings.baseUrl().orElse("http://localhost:11434")).timeout(settings.timeout())
                        .maxRetries(1).temperature(0.0);
                return (json ? ollama.responseFormat(ResponseFormat.JSON) : ollama).build();
            default:
                throw new IllegalStateException(prefix + ".provider is \"" + settings.provider() + "\"; it takes "
                        + "openai, anthropic or ollama.");
        }
    }

    /** What a failed model call says, for a problem's detail: its deepest cause's message, at most 300 characters. */
    public static String cause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        String top = e.getMessage() == null ? "" : e.getMessage();
        String said = top.isEmpty() || top.equals(m) ? m : top;
        return said.length() > 300 ? said.substring(0, 300) + "..." : said;
    }
}
