package dev.engram.contexts.app;

import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.JsonSetup;
import dev.engram.problems.Problems;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.contexts.Context;
import dev.engram.kernel.ContextChanged;
import dev.engram.contexts.FillCheck;
import dev.engram.kernel.SummaryFailed;
import dev.engram.entries.Hash;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextWrite;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One call per step of an agent loop ({@code POST .../contexts/{id}/steps?prompt=&compact=}): the append, then, when
 * {@code compact=auto} and the fill after it reached the compaction threshold ({@code thresholds.predictive_percent},
 * status {@code compact} or above), the context's compaction ({@link ContextCompactions}, as
 * {@code POST .../compact} runs it), then the prompt in the format asked for; answered as {@link ContextJson.Appended}.
 *
 * <p>Under an {@code Idempotency-Key} each part is made at most once. The append records the key in its transaction;
 * when more is to follow it records its answer as pending ({@link #PENDING}), and the compaction runs under a key of
 * its own made from the caller's ({@link #compactionKey}). Once the request is done the whole answer replaces the
 * pending one, so a retry gets it byte for byte; a retry that meets a pending answer (the first request failed or is
 * still running after its append) finishes the request: its compaction, under the same derived key, is replayed if it
 * landed and made otherwise, so a retry never compacts twice.
 */
@ApplicationScoped
public class ContextAppends {

    /** The status a pending answer is recorded with: never answered, as a retry finishes the request. */
    static final int PENDING = 102;

    @Inject
    ContextStore contexts;

    @Inject
    ContextCompactions compactions;

    @Inject
    ContextMetrics metrics;

    @Inject
    IdempotencyKeys keys;

    @Inject
    JsonSetup json;

    /** What an append asks for besides its steps: a prompt in a format (null: none) and whether to compact. */
    public record Options(String prompt, boolean autoCompact) {

        /** The options of {@code ?prompt=} and {@code ?compact=}; a bad value is refused, naming its parameter. */
        public static Options of(String prompt, String compact) {
            if (prompt != null && !PromptFormats.NAMES.contains(prompt)) {
                throw new Invalid("format-unknown", "prompt", "prompt is \"" + shown(prompt) + "\"; use neutral, "
                        + "openai-chat or anthropic to have the prompt in the answer, or leave prompt out.");
            }
            if (compact != null && !compact.equals("auto") && !compact.equals("off")) {
                throw new Invalid("compact-unknown", "compact", "compact is \"" + shown(compact) + "\"; use auto "
                        + "(compact when the fill reaches thresholds.predictive_percent) or off (the default).");
            }
            return new Options(prompt, "auto".equals(compact));
        }

        /** The options as part of the request a key identifies; "" for none, so a plain append's is unchanged. */
        String query() {
            return prompt == null && !autoCompact ? "" : "?prompt=" + (prompt == null ? "" : prompt)
                    + "&compact=" + (autoCompact ? "auto" : "off");
        }

        private static String shown(String value) {
            return value.length() > 40 ? value.substring(0, 40) + "..." : value;
        }
    }

    /** What an append is answered with, and whether it is a retry's (marked {@code Idempotent-Replayed}). */
    public record Answer(ContextJson.Appended appended, boolean replayed) {
    }

    /**
     * Appends with {@code append} to context {@code id} of {@code store} as {@code options} ask, at most once under
     * {@code key} for the request {@code method path} with {@code body}; {@code blocks} (from
     * {@link ContextMemory#blocksForAppend}) shows a context opened its memory block and records the block a prompt
     * showed, {@code read} reads the context as it is now. A retry of a request that was done is
     * {@link ContextWrite.Replayed} with its recorded answer.
     */
    public ContextWrite<Answer> append(String store, String id, Options options, String key, String path,
            Object body, ContextStore.Edit<ContextJson.Appended> append, ContextMemory.Blocks blocks,
            Supplier<Context> read) {
        String request = path + options.query();
        Optional<ContextStore.Once<ContextJson.Appended>> first = keys.once(key, "POST", request, body,
                a -> more(options, a) ? PENDING : 200, a -> a);
        ContextWrite<ContextJson.Appended> write;
        try {
            write = contexts.append(store, id, first, append);
        } catch (ContextMemory.SettingsUnprepared unprepared) {
            // The context shows memory settings this replica had not seen: rolled back, made again with their block.
            blocks.prepareAgain(unprepared);
            write = contexts.append(store, id, first, append);
        }
        blocks.landed();
        Consumer<Context> show = blocks::show;
        ContextJson.Appended appended;
        boolean replayed = false;
        if (write instanceof ContextWrite.Replayed<ContextJson.Appended> r) {
            if (!r.reply().startsWith(PENDING + " ")) {
                return new ContextWrite.Replayed<>(r.reply());
            }
            appended = parse(r.reply().substring(r.reply().indexOf(' ') + 1), ContextJson.Appended.class);
            replayed = true;
        } else {
            appended = write.landed();
        }
        if (!more(options, appended)) {
            return new ContextWrite.Landed<>(new Answer(appended, replayed));
        }
        Object compaction = null;
        if (due(options, appended)) {
            compaction = compact(store, id, show, key, path);
        }
        FillCheck fill = appended.fill();
        Object prompt = null;
        if (compaction != null || options.prompt() != null) {
            Context c = read.get();
            fill = c.checkFill();
            if (options.prompt() != null) {
                prompt = PromptFormats.answer(options.prompt(), metrics.prompt(c));
                blocks.recordShown();
            }
        }
        ContextJson.Appended done = appended.completed(fill, compaction, prompt);
        keys.once(key, "POST", request, body, a -> 200, a -> a)
                .ifPresent(once -> contexts.answered(store, once, done));
        return new ContextWrite.Landed<>(new Answer(done, replayed));
    }

    /** Whether the answer of {@code appended} needs more than the append: a prompt, or a compaction due. */
    private static boolean more(Options options, ContextJson.Appended appended) {
        return options.prompt() != null || due(options, appended);
    }

    private static boolean due(Options options, ContextJson.Appended appended) {
        return options.autoCompact() && !appended.fill().status().equals("ok");
    }

    /**
     * The context's compaction, at most once under the key made from {@code key} (none without one): its answer, the
     * first one replayed, or {@link ContextJson.CompactionRefused} when it could not land (the step has landed, so
     * the append is still answered 200; the next append that finds the fill due tries again).
     */
    private Object compact(String store, String id, Consumer<Context> show, String key, String path) {
        try {
            return compactions.compact(store, id, show, key == null ? null : compactionKey(key),
                    path.substring(0, path.length() - "/steps".length()) + "/compact")
                    .<Object>fold(c -> c, reply -> parse(reply.substring(reply.indexOf(' ') + 1), Object.class));
        } catch (ContextChanged | Limited | SummaryFailed e) {
            return new ContextJson.CompactionRefused(false, Problems.problem(e).body(null));
        }
    }

    /**
     * The key an append's compaction is made under, from the caller's key: visible ASCII with no spaces, as every key,
     * and one a caller would not send.
     */
    static String compactionKey(String key) {
        return "engram-auto-compact:" + Hash.of(key).substring(Hash.PREFIX.length());
    }

    private <T> T parse(String recorded, Class<T> type) {
        try {
            return json.mapper().readValue(recorded, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a recorded answer always reads back", e);
        }
    }
}
