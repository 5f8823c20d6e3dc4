package dev.engram.llm;

import dev.engram.ops.EngramConfig;
import dev.engram.memories.rank.Embedder;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The one embedding model this replica uses, built from {@code engram.embedding.*} and guarded
 * ({@link GuardedEmbedder}): {@code local} (the default) runs all-MiniLM-L6-v2 quantized in the process, loaded by the first
 * embedding (or, with {@code engram.embedding.preload}, on a background thread from application start, so that
 * start-up does not wait); {@code openai} and {@code ollama} call a remote model; {@code none} is {@link Embedder#NONE}. A setting
 * that cannot work (an unknown provider, a remote one without a model) fails start-up, naming the setting.
 *
 * <p>Native image: the local model is not for one (unset, the provider is {@code none} there; {@code local} is
 * refused). It runs on two JNI libraries that it unpacks from jars at run time: onnxruntime ({@code libonnxruntime.so}
 * and {@code libonnxruntime4j_jni.so}, from {@code ai/onnxruntime/native/linux-x64/}, into a new temporary
 * directory) and DJL's Hugging Face tokenizer
 * ({@code libtokenizers.so}, into {@code ~/.djl.ai}); their native sides create and call Java classes by name
 * ({@code ai.onnxruntime.*}: OnnxTensor, OnnxValue, OrtException and the session's results; DJL's {@code Encoding}).
 * A native image would need those classes registered for JNI and reflection, the libraries, the model
 * ({@code all-minilm-l6-v2-q.onnx}) and its tokenizer JSON included as resources, both libraries' classes initialised
 * at run time, and a writable directory to unpack into (or the libraries shipped beside the binary,
 * {@code onnxruntime.native.path}); none of it is configured or tested, as no native build can run here. A native
 * image sets {@code ENGRAM_EMBEDDING_PROVIDER} to {@code openai} or {@code ollama} (HTTP and JSON only, their types
 * registered as for the chat models: {@link NativeTypes}, and the OpenAI client's own configuration) or to
 * {@code none}.
 */
@ApplicationScoped
public class Embedders {

    /** How an operator configures one; said by refusals. */
    public static final String HOW = "Set ENGRAM_EMBEDDING_PROVIDER to local (in the process; not in a native image), "
            + "openai or ollama (with ENGRAM_EMBEDDING_MODEL, ENGRAM_EMBEDDING_BASE_URL and ENGRAM_EMBEDDING_API_KEY "
            + "as the provider needs), or none.";

    private static final Logger LOG = Logger.getLogger(Embedders.class);

    private final Embedder embedder;
    private final Optional<LocalModel> local;
    private final boolean preload;

    @Inject
    public Embedders(EngramConfig config, MeterRegistry registry) {
        this(config.embedding(), registry, ImageMode.current().isNativeImage());
    }

    /**
     * The embedder {@code settings} configure, its metrics in {@code registry}; the local model is not loading yet.
     * In a {@code nativeImage} an unset provider is {@code none}, and {@code local} is refused.
     */
    Embedders(EngramConfig.Embedding settings, MeterRegistry registry, boolean nativeImage) {
        this.preload = settings.preload();
        String provider = settings.provider().map(p -> p.trim().toLowerCase(Locale.ROOT))
                .orElse(nativeImage ? "none" : "local");
        if (nativeImage && "local".equals(provider)) {
            throw refused("engram.embedding.provider is local; the local model does not run in a native image.");
        }
        if (nativeImage && settings.provider().isEmpty()) {
            LOG.info("No embedding model: a native image has no local one, and recall ranks lexically. Set "
                    + "ENGRAM_EMBEDDING_PROVIDER to openai or ollama for hybrid recall.");
        }
        if (settings.batchSize() < 1) {
            throw refused("engram.embedding.batch-size is " + settings.batchSize() + "; it must be at least 1.");
        }
        if (settings.dimensions().filter(d -> d < 1).isPresent()) {
            throw refused("engram.embedding.dimensions is " + settings.dimensions().get() + "; it must be at least 1, "
                    + "or unset.");
        }
        if (settings.timeout().compareTo(Duration.ZERO) <= 0) {
            throw refused("engram.embedding.timeout is " + settings.timeout() + "; it must be more than 0.");
        }
        switch (provider) {
            case "none":
                this.local = Optional.empty();
                this.embedder = Embedder.NONE;
                break;
            case "local":
                String name = settings.model().filter(m -> !m.isBlank()).orElse(LocalModel.NAME);
                if (!name.equals(LocalModel.NAME)) {
                    throw refused("engram.embedding.model is \"" + name + "\"; the local provider has only "
                            + LocalModel.NAME + ". Unset it, or choose the openai or ollama provider for another "
                            + "model.");
                }
                if (settings.dimensions().filter(d -> d != LocalModel.DIMENSIONS).isPresent()) {
                    throw refused("engram.embedding.dimensions is " + settings.dimensions().get() + "; the local model "
                            + "gives " + LocalModel.DIMENSIONS + ". Unset it.");
                }
                LocalModel model = new LocalModel();
                this.local = Optional.of(model);
                this.embedder = new GuardedEmbedder(provider, LocalModel.NAME, model, LocalModel.DIMENSIONS,
                        settings.batchSize(), registry);
                break;
            case "openai":
            case "ollama":
                String example = "openai".equals(provider) ? "text-embedding-3-small" : "nomic-embed-text";
                String remote = settings.model().filter(m -> !m.isBlank()).orElseThrow(() -> refused(
                        "engram.embedding.model is not set; the " + provider + " provider needs the model's name "
                                + "(such as " + example + ")."));
                this.local = Optional.empty();
                this.embedder = new GuardedEmbedder(provider, remote, ModelSource.of(remote(provider, remote,
                        settings)), settings.dimensions().orElse(0), settings.batchSize(), registry);
                break;
            default:
                throw refused("engram.embedding.provider is \"" + settings.provider().orElse("") + "\"; it takes "
                        + "local, openai, ollama or none.");
        }
    }

    private static IllegalStateException refused(String what) {
        return new IllegalStateException(what + " " + HOW);
    }

    /** A remote model: one attempt per call (a search waits for it), within the timeout. */
    private static EmbeddingModel remote(String provider, String model, EngramConfig.Embedding s) {
        if ("openai".equals(provider)) {
            return OpenAiEmbeddingModel.builder().baseUrl(s.baseUrl().orElse(null))
                    .apiKey(s.apiKey().orElse("none")).modelName(model).dimensions(s.dimensions().orElse(null))
                    .timeout(s.timeout()).maxRetries(0).maxSegmentsPerBatch(s.batchSize()).build();
        }
        OllamaEmbeddingModel.OllamaEmbeddingModelBuilder ollama = OllamaEmbeddingModel.builder()
                .baseUrl(s.baseUrl().orElse("http://localhost:11434")).modelName(model)
                .dimensions(s.dimensions().orElse(null)).timeout(s.timeout()).maxRetries(0);
        s.apiKey().ifPresent(key -> ollama.customHeaders(Map.of("Authorization", "Bearer " + key)));
        return ollama.build();
    }

    /** Starts loading the local model when it is to preload, without waiting for it. */
    void start(@Observes StartupEvent started) {
        if (preload) {
            local.ifPresent(LocalModel::load);
        }
    }

    /** Whether the local model has begun to load (or has loaded); false for every other provider. */
    boolean localLoadStarted() {
        return local.map(LocalModel::started).orElse(false);
    }

    /** The embedder recall ranks with ({@link Embedder#NONE} when none is configured). */
    @Produces
    @Singleton
    public Embedder embedder() {
        return embedder;
    }

    /** What the embedder is and whether it is loaded, for health. */
    public EmbedderStatus status() {
        if (embedder instanceof GuardedEmbedder guarded) {
            return guarded.status();
        }
        return new EmbedderStatus("none", "", 0, false, "");
    }
}
