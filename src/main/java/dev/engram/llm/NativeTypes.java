package dev.engram.llm;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What the native image must be able to create or read by reflection for the chat models and the tokenizers:
 * {@link Tiktoken}, which a ServiceLoader creates; LangChain4j's JDK HTTP client, which its models find the same
 * way, and its default embedding model's factory (the local model's, which Engram never asks for: it builds it); and
 * the JSON types of LangChain4j's Ollama client, which ships no native-image configuration (its OpenAI and Anthropic
 * clients ship theirs). {@code NativeRegistrationsTest} finds these in the libraries and fails when one is missing.
 */
@RegisterForReflection(targets = Tiktoken.class, classNames = {
    "dev.langchain4j.http.client.jdk.JdkHttpClientBuilderFactory",
    "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModelFactory",
    "dev.langchain4j.model.ollama.CompletionRequest",
    "dev.langchain4j.model.ollama.CompletionResponse",
    "dev.langchain4j.model.ollama.DeleteModelRequest",
    "dev.langchain4j.model.ollama.EmbeddingRequest",
    "dev.langchain4j.model.ollama.EmbeddingResponse",
    "dev.langchain4j.model.ollama.FormatSerializer",
    "dev.langchain4j.model.ollama.Function",
    "dev.langchain4j.model.ollama.FunctionCall",
    "dev.langchain4j.model.ollama.Message",
    "dev.langchain4j.model.ollama.ModelsListResponse",
    "dev.langchain4j.model.ollama.OllamaChatRequest",
    "dev.langchain4j.model.ollama.OllamaChatResponse",
    "dev.langchain4j.model.ollama.OllamaDateDeserializer",
    "dev.langchain4j.model.ollama.OllamaModel",
    "dev.langchain4j.model.ollama.OllamaModelCard",
    "dev.langchain4j.model.ollama.OllamaModelDetails",
    "dev.langchain4j.model.ollama.OllamaModelMessage",
    "dev.langchain4j.model.ollama.OllamaModelTensor",
    "dev.langchain4j.model.ollama.OllamaModelToolCall",
    "dev.langchain4j.model.ollama.OllamaModelToolCallFunction",
    "dev.langchain4j.model.ollama.Options",
    "dev.langchain4j.model.ollama.Parameters",
    "dev.langchain4j.model.ollama.Role",
    "dev.langchain4j.model.ollama.RunningModelsListResponse",
    "dev.langchain4j.model.ollama.RunningOllamaModel",
    "dev.langchain4j.model.ollama.ShowModelInformationRequest",
    "dev.langchain4j.model.ollama.Tool",
    "dev.langchain4j.model.ollama.ToolCall"
})
final class NativeTypes {

    private NativeTypes() {
    }
}
