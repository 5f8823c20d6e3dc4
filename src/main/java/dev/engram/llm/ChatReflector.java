package dev.engram.llm;

import dev.engram.kernel.ReflectionFailed;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Observation;
import dev.engram.memories.Reflector;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;

/**
 * The {@code llm} reflector: one chat-model call with {@link ReflectPrompt}, its answer read by
 * {@link ReflectAnswer}. A call that fails (unreachable, refused, timed out) is
 * {@link ReflectionFailed.Kind#UNREACHABLE}; the model's error text is passed on, its key never is.
 */
final class ChatReflector implements Reflector {

    private final ChatModel model;
    private final String describe;

    ChatReflector(ChatModel model, String describe) {
        this.model = model;
        this.describe = describe;
    }

    @Override
    public String name() {
        return "llm";
    }

    /** What one observation can cite, as a model may cite every fact it is given in one. */
    @Override
    public int maxFacts() {
        return MemoryRules.MAX_SET_SIZE;
    }

    @Override
    public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
        ChatResponse response;
        try {
            response = model.chat(ChatRequest.builder().messages(SystemMessage.from(ReflectPrompt.SYSTEM),
                    UserMessage.from(ReflectPrompt.facts(facts, existing))).build());
        } catch (RuntimeException e) {
            throw new ReflectionFailed(ReflectionFailed.Kind.UNREACHABLE, name(), "The llm reflector (" + describe
                    + ") failed: " + ChatModels.cause(e) + ". Nothing was saved; check engram.reflect.llm.* and retry.");
        }
        String text = response == null || response.aiMessage() == null ? null : response.aiMessage().text();
        return ReflectAnswer.read(text, name());
    }
}
