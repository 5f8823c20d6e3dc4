package dev.engram.llm;

import dev.engram.contexts.Summarizer;
import dev.engram.kernel.Limited;
import dev.engram.ops.EngramConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The summarizations this replica runs: at most {@code engram.context.summarizer.concurrency} at once (one more is
 * refused with 503, as a reflection beyond its bound is), each asking for up to
 * {@code engram.context.summarizer.parallel-blocks} blocks at once, and counting what its model answered.
 */
@ApplicationScoped
public class Summarizations {

    private final int concurrency;
    private final int parallelBlocks;
    private final Semaphore running;
    private final ExecutorService helpers;

    @Inject
    public Summarizations(EngramConfig config) {
        this(config.context().summarizer().concurrency(), config.context().summarizer().parallelBlocks());
    }

    /** At most {@code concurrency} summarizations at once, each asking for up to {@code parallelBlocks} blocks. */
    Summarizations(int concurrency, int parallelBlocks) {
        this.concurrency = Math.max(1, concurrency);
        this.parallelBlocks = Math.max(1, parallelBlocks);
        this.running = new Semaphore(concurrency);
        int threads = concurrency * (parallelBlocks - 1);
        AtomicInteger named = new AtomicInteger();
        this.helpers = threads == 0 ? null : Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, "engram-summarizer-" + named.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @PreDestroy
    void stop() {
        if (helpers != null) {
            helpers.shutdownNow();
        }
    }

    /**
     * A summarization with {@code summarizer}, holding one of this replica's places until it is closed; throws
     * {@link Limited} ({@code CAPACITY}, 503) when every place is taken.
     */
    public Run start(Summarizer summarizer) {
        if (!running.tryAcquire()) {
            throw new Limited(Limited.Kind.CAPACITY, "summarizations", concurrency, 5, "This replica is running as "
                    + "many summarizations as it may (a compaction that asks a model); retry in a few seconds.");
        }
        return new Run(summarizer);
    }

    /** A thread helping one summarization: it works only if it starts before the summarization is done without it. */
    private static final class Helper implements Runnable {

        private static final int WAITING = 0;
        private static final int WORKING = 1;
        private static final int SKIPPED = 2;

        private final Runnable work;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private volatile Future<?> done;

        Helper(Runnable work) {
            this.work = work;
        }

        @Override
        public void run() {
            if (state.compareAndSet(WAITING, WORKING)) {
                work.run();
            }
        }

        /** Returns once this helper will never work again: skipped if it had not started, else when it finished. */
        void finish() {
            if (state.compareAndSet(WAITING, SKIPPED)) {
                return;
            }
            try {
                done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while summaries were being asked for", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("A summary helper failed", e.getCause());
            }
        }
    }

    /**
     * One summarization: a {@link Summarizer} that asks the one it wraps, several blocks at once, and counts the
     * summaries it got and the failures. Closing it frees its place (once).
     */
    public final class Run implements Summarizer, AutoCloseable {

        private final Summarizer summarizer;
        private final AtomicInteger answered = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final java.util.concurrent.atomic.AtomicReference<String> firstFailure =
                new java.util.concurrent.atomic.AtomicReference<>("");

        private Run(Summarizer summarizer) {
            this.summarizer = summarizer;
        }

        @Override
        public String summarize(String text) {
            Answer answer = ask(text);
            if (answer.failed()) {
                throw answer.failure();
            }
            return answer.summary();
        }

        /**
         * Asks for the texts' summaries on up to {@code parallel-blocks} threads, this one included: each takes the
         * next text not yet taken until none is left. A helper the pool had not started by then is skipped, so a busy
         * pool only makes this slower.
         */
        @Override
        public List<Answer> summarizeEach(List<String> texts) {
            Answer[] answers = new Answer[texts.size()];
            AtomicInteger next = new AtomicInteger();
            Runnable work = () -> {
                for (int i = next.getAndIncrement(); i < answers.length; i = next.getAndIncrement()) {
                    answers[i] = ask(texts.get(i));
                }
            };
            List<Helper> helping = new ArrayList<>();
            int extra = helpers == null ? 0 : Math.min(parallelBlocks, texts.size()) - 1;
            for (int h = 0; h < extra; h++) {
                Helper helper = new Helper(work);
                helper.done = helpers.submit(helper);
                helping.add(helper);
            }
            work.run();
            for (Helper helper : helping) {
                helper.finish();
            }
            return List.of(answers);
        }

        private Answer ask(String text) {
            Answer answer = Answer.of(summarizer, text);
            (answer.failed() ? failed : answered).incrementAndGet();
            if (answer.failed()) {
                String said = answer.failure().getMessage();
                firstFailure.compareAndSet("", said == null || said.isEmpty() ? "the summarizer failed" : said);
            }
            return answer;
        }

        /** What the first failure said ("" when the model never failed). */
        public String firstFailure() {
            return firstFailure.get();
        }

        /** How many summaries the model gave. */
        public int answered() {
            return answered.get();
        }

        /** How many blocks the model failed on (the fallback text took their place). */
        public int failed() {
            return failed.get();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                running.release();
            }
        }
    }
}
