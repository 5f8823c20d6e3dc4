package dev.engram.contexts.app;

import dev.engram.contexts.messages.Message;
import dev.engram.kernel.Invalid;
import java.util.List;
import java.util.Map;

/**
 * The forms {@code GET .../contexts/{id}/prompt?format=} answers a context's prompt in: {@code neutral} (the
 * reference's messages, the default), {@code openai-chat} ({@code {"messages": [...]}} for Chat Completions) and
 * {@code anthropic} ({@code {"system": [...], "messages": [...]}} for the Messages API); each provider form is a
 * request's members, to add the model and the rest to.
 */
public final class PromptFormats {

    static final String NEUTRAL = "neutral";
    /** The formats' names, the default first. */
    public static final List<String> NAMES = List.of(NEUTRAL, OpenAiChatForm.NAME, AnthropicForm.NAME);

    private PromptFormats() {
    }

    /** The format asked for: {@code neutral} when none is; an unknown one is refused, naming the three. */
    public static String named(String format) {
        String f = format == null || format.isEmpty() ? NEUTRAL : format;
        if (!NAMES.contains(f)) {
            throw new Invalid("format-unknown", "format", "format is \"" + (f.length() > 40 ? f.substring(0, 40)
                    + "..." : f) + "\"; use neutral (the default), openai-chat or anthropic.");
        }
        return f;
    }

    /** {@code prompt} in {@code format}, a name {@link #named} accepted. */
    public static Object answer(String format, List<Message> prompt) {
        return switch (format) {
            case OpenAiChatForm.NAME -> Map.of("messages", OpenAiChatForm.write(prompt));
            case AnthropicForm.NAME -> AnthropicForm.write(prompt);
            default -> Map.of("messages", prompt.stream().map(ContextJson.MessageJson::of).toList());
        };
    }
}
