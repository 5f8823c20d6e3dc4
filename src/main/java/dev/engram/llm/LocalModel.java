package dev.engram.llm;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The local embedding model, all-MiniLM-L6-v2 quantized (ONNX, in the process): loaded once, on a thread of its own
 * that {@link #load()} starts (at application start, when it is to preload), or by the first {@link #model()}. The
 * load reads the 23 MB model from the jar and two native libraries: onnxruntime's, extracted to a new temporary
 * directory, and the tokenizer's (DJL), extracted to {@code ~/.djl.ai} ({@code java.io.tmpdir} when the home
 * directory is not writable; {@code DJL_CACHE_DIR} moves it). A JVM loads a native library in one class loader only,
 * so a second Quarkus start in the same JVM (the test suite's profiles) needs those libraries' classes loaded by the
 * JVM's class loader (application.properties, {@code %test.quarkus.class-loading.parent-first-artifacts}). A batch of
 * texts is embedded on up to one thread per core.
 */
final class LocalModel implements ModelSource {

    /** The model's name as memories record it. */
    static final String NAME = "all-minilm-l6-v2-q";

    /** The length of its vectors. */
    static final int DIMENSIONS = 384;

    private static final Logger LOG = Logger.getLogger(LocalModel.class);

    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<EmbeddingModel> model = new CompletableFuture<>();

    /** Starts loading on a background thread, unless it has started already; returns at once. */
    void load() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread loader = new Thread(this::loadHere, "engram-embedding-load");
        loader.setDaemon(true);
        // the model reads its files through the context class loader, which must be the application's
        loader.setContextClassLoader(LocalModel.class.getClassLoader());
        loader.start();
    }

    /** Whether its load has begun (it may have ended). */
    boolean started() {
        return started.get();
    }

    private void loadHere() {
        long start = System.nanoTime();
        try {
            EmbeddingModel loaded = new AllMiniLmL6V2QuantizedEmbeddingModel(workers());
            LOG.infof("Loaded the local embedding model %s (%d dimensions) in %d ms", NAME, DIMENSIONS,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            model.complete(loaded);
        } catch (Throwable e) {
            LOG.errorf("Could not load the local embedding model %s: %s. Recall cannot embed; set "
                    + "ENGRAM_EMBEDDING_PROVIDER to openai, ollama or none.", NAME, ChatModels.cause(e));
            model.completeExceptionally(e);
        }
    }

    /**
     * The threads a batch is embedded on, one per core, daemons that end after a minute idle (the model's own default
     * pool is the same but of threads that are not daemons and carry no name).
     */
    private static Executor workers() {
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(cores, cores, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "engram-embedding-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Override
    public EmbeddingModel model() {
        load();
        try {
            return model.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddingFailed(EmbeddingFailed.Reason.UNAVAILABLE, "Interrupted while the local embedding "
                    + "model " + NAME + " was loading.", e);
        } catch (ExecutionException e) {
            throw new EmbeddingFailed(EmbeddingFailed.Reason.UNAVAILABLE, "The local embedding model " + NAME
                    + " could not be loaded: " + ChatModels.cause(e.getCause()), e.getCause());
        }
    }

    @Override
    public boolean loaded() {
        return model.isDone() && !model.isCompletedExceptionally();
    }

    @Override
    public Optional<String> problem() {
        if (!model.isCompletedExceptionally()) {
            return Optional.empty();
        }
        try {
            model.join();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(ChatModels.cause(e.getCause() == null ? e : e.getCause()));
        }
    }
}
