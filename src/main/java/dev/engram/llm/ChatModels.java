package dev.engram.llm;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ops.EngramConfig;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The chat models Engram calls (reflection, the context summarizer), built from one {@link EngramConfig.Llm}
 * settings group, over {@link ProviderHttp}: the configured timeout is the whole call's (one retry of a 429 or
 * 5xx after its {@code Retry-After}, up to {@code retry-after-max}, inside it), the answer bound and temperature 0,
 * except for OpenAI reasoning models ({@link #reasoning}), which refuse both: they are sent neither a temperature
 * nor {@code max_tokens}, and the bound as {@code max_completion_tokens}. Base URLs are normalised
 * ({@link #baseUrl}). An unknown provider fails at startup, naming the setting.
 */
public final class ChatModels {

    private static final Pattern REASONING = Pattern.compile("(?:.*/)?(?:o\\d+|gpt-5)(?:[-.:].*)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern JAVA_NAME = Pattern.compile("`?\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][\\w$]*`?");
    private static final ObjectMapper PLAIN = new ObjectMapper();

    private ChatModels() {
    }

    /**
     * The chat model {@code model} of {@code settings}' provider; {@code json} asks Ollama's native API for a JSON
     * answer (the others are told so in the prompt). {@code prefix} names the settings group in errors, such as
     * {@code engram.reflect.llm}.
     */
    public static ChatModel of(EngramConfig.Llm settings, String model, boolean json, String prefix) {
        String provider = settings.provider().toLowerCase(Locale.ROOT);
        ProviderHttp http = new ProviderHttp(settings.timeout(), settings.retryAfterMax());
        String base = baseUrl(provider, settings.baseUrl()).orElse(null);
        switch (provider) {
            case "openai":
                OpenAiChatModel.OpenAiChatModelBuilder openAi = OpenAiChatModel.builder().modelName(model)
                        .baseUrl(base).apiKey(settings.apiKey().orElse("none")).httpClientBuilder(http)
                        .timeout(settings.timeout()).maxRetries(0);
                return (reasoning(settings, model) ? openAi.maxCompletionTokens(settings.maxTokens())
                        : openAi.maxTokens(settings.maxTokens()).temperature(0.0)).build();
            case "anthropic":
                return AnthropicChatModel.builder().modelName(model).baseUrl(base)
                        .apiKey(settings.apiKey().orElse("none")).httpClientBuilder(http).timeout(settings.timeout())
                        .maxRetries(0).maxTokens(settings.maxTokens()).temperature(0.0).build();
            case "ollama":
                OllamaChatModel.OllamaChatModelBuilder ollama = OllamaChatModel.builder().modelName(model)
                        .baseUrl(base == null ? "http://localhost:11434" : base).httpClientBuilder(http)
                        .timeout(settings.timeout()).maxRetries(0).temperature(0.0);
                return (json ? ollama.responseFormat(ResponseFormat.JSON) : ollama).build();
            default:
                throw new IllegalStateException(prefix + ".provider is \"" + settings.provider() + "\"; it takes "
                        + "openai, anthropic or ollama.");
        }
    }

    /**
     * Whether {@code model} is asked as an OpenAI reasoning model (no temperature, {@code max_completion_tokens}):
     * {@code reasoning} when the setting is given, else by the name: the o-series ({@code o1}, {@code o3-mini},
     * {@code o4-mini}...) and {@code gpt-5*}, also behind a {@code vendor/} prefix.
     */
    static boolean reasoning(EngramConfig.Llm settings, String model) {
        return settings.reasoning().orElseGet(() -> REASONING.matcher(model).matches());
    }

    /**
     * A base URL as the provider's client takes it: trailing slashes dropped; Anthropic's ends in {@code /v1/}
     * (given with or without {@code /v1}, as its SDKs take it without); an OpenAI-compatible one given as a bare
     * host gets {@code /v1} (its SDKs take it with); Ollama's is its host. Empty: the provider's public URL.
     */
    static Optional<String> baseUrl(String provider, Optional<String> given) {
        Optional<String> url = given.map(String::strip).filter(u -> !u.isEmpty()).map(u -> u.replaceAll("/+$", ""));
        return switch (provider) {
            case "anthropic" -> url.map(u -> (u.endsWith("/v1") ? u : u + "/v1") + "/");
            case "openai" -> url.map(u -> bareHost(u) ? u + "/v1" : u);
            default -> url;
        };
    }

    private static boolean bareHost(String url) {
        int scheme = url.indexOf("://");
        return scheme >= 0 && url.indexOf('/', scheme + 3) < 0;
    }

    /**
     * What a failed model call says, for a problem's detail or a fallback text, in at most 300 characters and
     * without Java's names: {@code HTTP 429: ...} with the provider's own message, {@code timed out},
     * {@code unreachable}, or that its answer was not the API's JSON; else the failure's message.
     */
    public static String cause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpException h) {
                String said = providerMessage(h.getMessage());
                return cut("HTTP " + h.statusCode() + (said.isEmpty() ? "" : ": " + said));
            }
            if (t instanceof dev.langchain4j.exception.TimeoutException || t instanceof HttpTimeoutException
                    || t instanceof SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                String said = t.getMessage() == null ? "" : clean(t.getMessage());
                return cut(said.startsWith("no answer within") ? "timed out: " + said : "timed out");
            }
            if (t instanceof ConnectException || t instanceof ProviderHttp.HttpFailed) {
                return cut(t instanceof ProviderHttp.HttpFailed ? clean(t.getMessage()) : "unreachable");
            }
            if (t instanceof JacksonException) {
                return "its answer was not the API's JSON";
            }
        }
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? "" : t.getMessage();
        String top = e.getMessage() == null ? "" : e.getMessage();
        String said = clean(top.isEmpty() || top.equals(m) ? m : top);
        return said.isEmpty() ? "it failed without saying why" : cut(said);
    }

    /** The message in a provider's error body ({@code error.message}, {@code message}), else the body, cleaned. */
    private static String providerMessage(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode node = PLAIN.readTree(body);
            JsonNode message = node.path("error").isTextual() ? node.path("error")
                    : node.path("error").path("message").isMissingNode() ? node.path("message")
                    : node.path("error").path("message");
            if (message.isTextual()) {
                return clean(message.asText());
            }
        } catch (JacksonException | RuntimeException notJson) {
            // a plain body: said as it is
        }
        return clean(body);
    }

    /** {@code text} without Java class names, on one line. */
    static String clean(String text) {
        return JAVA_NAME.matcher(text).replaceAll("a value").replaceAll("\\s+", " ").strip();
    }

    private static String cut(String said) {
        return said.length() > 300 ? said.substring(0, 300) + "..." : said;
    }
}
