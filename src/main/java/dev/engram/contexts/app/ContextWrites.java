package dev.engram.contexts.app;

import dev.engram.contexts.ContextRules;
import dev.engram.contexts.Step;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.kernel.Invalid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** The journal record of caching {@code r}. */
    public static Map<String, Object> cachedRecord(CachedResult r) {
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
