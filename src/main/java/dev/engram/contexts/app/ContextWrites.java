package dev.engram.contexts.app;

import dev.engram.contexts.Context;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.Step;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the writes of a context keep from a request: its steps, checked before any lock and stored with their call
 * ids and cache hashes, and the journal record of a cached tool result. The same for every transport.
 */
public final class ContextWrites {

    private ContextWrites() {
    }

    /** The steps of {@code body}, each one readable, at most {@link ContextRules#MAX_STEPS_PER_REQUEST}. */
    public static List<ContextJson.StepBody> steps(ContextJson.Steps body) {
        List<ContextJson.StepBody> given = required(body).steps();
        if (given == null) {
            throw new Invalid("steps-missing", "steps", "Send {\"steps\": [...]}, the steps in order.");
        }
        ContextRules.checkRequestSteps(given.size());
        given.forEach(ContextWrites::required);
        given.forEach(ContextJson.StepBody::toStep);
        return given;
    }

    /**
     * The steps of {@code given} as the context stores them from place {@code from} on (a call without an id has its
     * generated one, {@link Step#withCallIdAt}, so a step marked {@code cache} is a tool step to the cache too and
     * the journal records the id the prompts show), keeping the observation of each tool step marked {@code cache}
     * in the cache.
     */
    public static List<Step> cached(List<ContextJson.StepBody> given, int from, ToolResultCache cache) {
        List<Step> steps = new ArrayList<>(given.size());
        for (ContextJson.StepBody b : given) {
            Step s = b.toStep().withCallIdAt(from + steps.size());
            if (Boolean.TRUE.equals(b.cache()) && s.isToolStep()) {
                s = s.withCacheHash(cache.store(s.action().name(), s.observation()));
            }
            steps.add(s);
        }
        return steps;
    }

    /**
     * The append of {@code given} to context {@code id}, which {@code open} opens from what is stored; answered with
     * where the steps landed and the fill after them. No context is {@link NotFound}.
     */
    public static ContextStore.Edit<ContextJson.Appended> append(String id, List<ContextJson.StepBody> given,
            Function<Held, Context> open) {
        return (current, cache) -> {
            Context c = open.apply(current.orElseThrow(() -> NotFound.context(id)));
            int from = c.steps().size();
            List<Step> added = cached(given, from, cache);
            added.forEach(c::addStep);
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("from", from);
            record.put("steps", added);
            return Edited.of(c, "context.steps_appended", record,
                    new ContextJson.Appended(id, from, c.steps().size(), c.checkFill(), null, null));
        };
    }

    /**
     * Replacing the steps of context {@code id}, which {@code open} opens, with {@code given} (a checkpoint resumed:
     * the compacted prefix goes), answered with {@code view} of the context after. No context is {@link NotFound}.
     */
    public static <T> ContextStore.Edit<T> replace(String id, List<ContextJson.StepBody> given,
            Function<Held, Context> open, Function<Context, T> view) {
        return (current, cache) -> {
            Context c = open.apply(current.orElseThrow(() -> NotFound.context(id)));
            List<Step> seeded = cached(given, 0, cache);
            c.seedSteps(seeded);
            return Edited.of(c, "context.steps_replaced", Map.of("steps", seeded), view.apply(c));
        };
    }

    /**
     * Consuming the pending interjection of context {@code id}, answered with {@code view} of the context after;
     * nothing changes, and nothing is journaled, when none is pending. No context is {@link NotFound}.
     */
    public static <T> ContextStore.Edit<T> consumeInterjection(String id, Function<Held, Context> open,
            Function<Context, T> view) {
        return (current, cache) -> {
            Context c = open.apply(current.orElseThrow(() -> NotFound.context(id)));
            if (c.pendingInterjection().isEmpty()) {
                return Edited.unchanged(view.apply(c));
            }
            c.consumePendingInterjection();
            return Edited.of(c, "context.interjection_consumed", Map.of(), view.apply(c));
        };
    }

    /**
     * Setting the estimate of context {@code id} to the input tokens {@code body} reports, answered with the fill
     * after; a body without them is refused before any lock, no context is {@link NotFound}.
     */
    public static ContextStore.Edit<FillCheck> correctTokenCount(String id, ContextJson.TokenCount body,
            Function<Held, Context> open) {
        if (required(body).inputTokens() == null) {
            throw new Invalid("input-tokens-missing", "input_tokens", "Send input_tokens, the input token count "
                    + "the provider reported for the last prompt.");
        }
        return (current, cache) -> {
            Context c = open.apply(current.orElseThrow(() -> NotFound.context(id)));
            c.correctTokenCount(body.inputTokens());
            return Edited.of(c, "context.token_count_corrected", Map.of("input_tokens", body.inputTokens()),
                    c.checkFill());
        };
    }

    /**
     * Keeping the tool output {@code body} sends in context {@code id}'s cache (a file read's with its path, mtime and
     * size): answered with its short and full hash; nothing is journaled when the cache held it already. Mtime or size
     * without a path is refused before any lock; no context is {@link NotFound}.
     */
    public static ContextStore.Edit<ContextJson.Cached> cache(String id, ContextJson.ToolResult body) {
        ContextJson.ToolResult b = required(body);
        String content = b.content() == null ? "" : b.content();
        String tool = b.toolName() == null ? "" : b.toolName();
        boolean file = b.filePath() != null && !b.filePath().isEmpty();
        if (!file && (b.fileMtimeNanos() != null || b.fileSize() != null)) {
            throw new Invalid("file-path-missing", "file_path", "file_mtime_nanos and file_size describe a file "
                    + "read; send file_path with them.");
        }
        return (current, cache) -> {
            Held held = current.orElseThrow(() -> NotFound.context(id));
            int before = cache.size();
            String shortHash = file ? cache.storeFile(tool, b.filePath(), orZero(b.fileMtimeNanos()),
                    orZero(b.fileSize()), content) : cache.store(tool, content);
            CachedResult kept = cache.get(shortHash).orElseThrow();
            ContextJson.Cached answer = new ContextJson.Cached(kept.shortHash(), kept.hash());
            if (cache.size() == before) {
                return Edited.unchanged(answer);
            }
            return new Edited<>(held, "context.tool_result_cached", cachedRecord(kept), answer);
        };
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    /** The journal record of caching {@code r}. */
    static Map<String, Object> cachedRecord(CachedResult r) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("short_hash", r.shortHash());
        record.put("hash", r.hash());
        record.put("tool_name", r.toolName());
        record.put("content", r.content());
        if (r.fileBacked()) {
            record.put("file_path", r.filePath());
            record.put("file_mtime_nanos", r.fileMtimeNanos());
            record.put("file_size", r.fileSize());
        }
        return record;
    }

    /** {@code body}, refused when the request had none. */
    public static <T> T required(T body) {
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty; send a JSON object.");
        }
        return body;
    }
}
