package dev.engram.contexts.rest;

import dev.engram.contexts.app.ContextAppends;
import dev.engram.contexts.app.ContextCompactions;
import dev.engram.contexts.app.ContextJson;
import dev.engram.contexts.app.ContextMemory;
import dev.engram.contexts.app.ContextMetrics;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.Params;
import dev.engram.contexts.app.PromptFormats;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.access.rest.Gate;
import dev.engram.contexts.CompactionStrategy;
import dev.engram.contexts.Context;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.Step;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.VulnerableOutput;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.contexts.cache.ToolResultRead;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.memories.MemoryRules;
import dev.engram.contexts.persistence.PgContexts;
import dev.engram.contexts.persistence.PgContexts.Edited;
import dev.engram.contexts.persistence.PgContexts.Held;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A store's contexts (seed 004): one agent run's working memory each, kept in PostgreSQL, every change a record of
 * the store's journal. Like memories, contexts have no scope: reading one takes a grant that reads every scope of
 * the store, changing one a grant that writes every scope. Every change is made at most once under an
 * {@code Idempotency-Key}: a retry is answered with the first answer, status and body, marked
 * {@code Idempotent-Replayed} ({@link IdempotencyKeys#once}).
 */
@Path("/v1/stores/{store}/contexts/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class ContextResource {

    @Inject
    PgContexts contexts;

    @Inject
    Gate gate;

    @Inject
    ToolResultReads reads;

    @Inject
    ContextMemory memory;

    /** The memory block this request shows (see {@link ContextMemory}). */
    private ContextMemory.Blocks blocks;

    @Inject
    ContextCompactions compactions;

    @Inject
    ContextAppends appends;

    @Inject
    ContextMetrics metrics;

    @Inject
    IdempotencyKeys keys;

    @PathParam("store")
    String storeId;

    @PathParam("id")
    String contextId;

    /** Creates the context (201) or reconfigures it (200), keeping what it holds. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> configure(ContextJson.Config body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        ContextConfig config = required(body).toConfig();
        blocks.configure(config.memory());
        boolean[] created = {false};
        ContextJson.View view = contexts.change(store(), id(), keys.once(key, "PUT", path(""), body,
                v -> created[0] ? 201 : 200, v -> v), (current, cache) -> {
            created[0] = current.isEmpty();
            Context c = current.map(h -> open(config, h))
                    .orElseGet(() -> Context.of(config, null));
            blocks.show(c);
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("config", config);
            return new Edited<>(new Held(config, c.state()), "context.configured", record, view(c));
        });
        return RestResponse.ResponseBuilder.create(created[0] ? RestResponse.Status.CREATED : RestResponse.Status.OK,
                view).build();
    }

    @GET
    public ContextJson.View get() {
        readable();
        return view(read());
    }

    /** Deletes the context and its tool-result cache. */
    @DELETE
    public RestResponse<Void> delete(@HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        contexts.change(store(), id(), keys.<Void>once(key, "DELETE", path(""), null, v -> 204, v -> null),
                (current, cache) -> {
            existing(current);
            return new Edited<>(null, "context.deleted", Map.of(), null);
        });
        return RestResponse.noContent();
    }

    @PUT
    @Path("system-prompt")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View systemPrompt(ContextJson.Text body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        String text = text(required(body).text());
        return edit(once(key, "PUT", "/system-prompt", body), "context.system_prompt_set", Map.of("parts",
                List.of(text.split(java.util.regex.Pattern.quote(Context.CACHE_BREAK), -1))),
                c -> c.setSystemPrompt(text));
    }

    @PUT
    @Path("plan")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View plan(ContextJson.Text body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        String text = text(required(body).text());
        return edit(once(key, "PUT", "/plan", body), "context.plan_set", Map.of("text", text),
                c -> c.setPlan(text));
    }

    @PUT
    @Path("task")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View task(ContextJson.Task body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        String text = text(required(body).text());
        var content = body.toBlocks();
        return edit(once(key, "PUT", "/task", body), "context.task_set", Map.of("text", text, "blocks", content),
                c -> c.setTaskWithBlocks(text, content));
    }

    @PUT
    @Path("prior-conversation")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View priorConversation(ContextJson.Messages body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        var messages = required(body).messages() == null ? List.<dev.engram.contexts.messages.Message>of()
                : body.messages().stream().map(m -> required(m).toMessage()).toList();
        return edit(once(key, "PUT", "/prior-conversation", body), "context.prior_conversation_set",
                Map.of("messages", messages),
                c -> c.setPriorConversation(messages));
    }

    /** Sets a user message shown last on every prompt until it is consumed ({@code DELETE}). */
    @PUT
    @Path("interjection")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View interjection(ContextJson.Text body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        String text = text(required(body).text());
        return edit(once(key, "PUT", "/interjection", body), "context.interjection_set", Map.of("text", text),
                c -> c.setPendingInterjection(text));
    }

    /** Consumes the pending interjection once a model has seen it; nothing is journaled when none is pending. */
    @DELETE
    @Path("interjection")
    public ContextJson.View consumeInterjection(@HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        return contexts.change(store(), id(), once(key, "DELETE", "/interjection", null), (current, cache) -> {
            Context c = open(existing(current));
            if (c.pendingInterjection().isEmpty()) {
                return Edited.unchanged(view(c));
            }
            c.consumePendingInterjection();
            return new Edited<>(new Held(c.config(), c.state()), "context.interjection_consumed", Map.of(), view(c));
        });
    }

    /**
     * Appends steps in order; a step with {@code "cache": true} keeps its observation in the cache first. With
     * {@code ?compact=auto} the context is compacted in the same request when the fill after the append reached the
     * compaction threshold, and with {@code ?prompt=} the answer carries the prompt in that format
     * ({@link ContextAppends}): one call per step of an agent loop.
     */
    @POST
    @Path("steps")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.Appended> appendSteps(ContextJson.Steps body,
            @HeaderParam(IdempotencyKey.HEADER) String key, @QueryParam("prompt") String prompt,
            @QueryParam("compact") String compact) {
        writable();
        ContextAppends.Options options = ContextAppends.Options.of(prompt, compact);
        List<ContextJson.StepBody> given = steps(body);
        ContextAppends.Answer answer = appends.append(store(), id(), options, key, path("/steps"), body,
                (current, cache) -> {
                    Context c = open(existing(current));
                    int from = c.steps().size();
                    List<Step> added = cached(given, from, cache);
                    added.forEach(c::addStep);
                    Map<String, Object> record = new LinkedHashMap<>();
                    record.put("from", from);
                    record.put("steps", added);
                    return new Edited<>(new Held(c.config(), c.state()), "context.steps_appended", record,
                            new ContextJson.Appended(contextId, from, c.steps().size(), c.checkFill(), null, null));
                }, blocks::show, this::read, blocks::recordShown);
        return IdempotencyKeys.replayed(RestResponse.ResponseBuilder.ok(answer.appended()), answer.replayed());
    }

    /** Replaces every step (a checkpoint resumed): the compacted prefix goes, the estimate is recounted. */
    @PUT
    @Path("steps")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.View replaceSteps(ContextJson.Steps body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        List<ContextJson.StepBody> given = steps(body);
        return contexts.change(store(), id(), once(key, "PUT", "/steps", body), (current, cache) -> {
            Context c = open(existing(current));
            List<Step> seeded = cached(given, 0, cache);
            c.seedSteps(seeded);
            return new Edited<>(new Held(c.config(), c.state()), "context.steps_replaced", Map.of("steps", seeded),
                    view(c));
        });
    }

    @GET
    @Path("steps")
    public Map<String, List<ContextJson.StepBody>> steps() {
        readable();
        return Map.of("steps", read().steps().stream().map(ContextJson.StepBody::of).toList());
    }

    /**
     * The assembled prompt in the reference's neutral form, or ready for a provider ({@link PromptFormats}); with a
     * memory block, its manifest is recorded for the session the context's id names when it moved. An unknown format
     * is refused before anything is recorded.
     */
    @GET
    @Path("prompt")
    public Object prompt(@QueryParam("format") String format) {
        readable();
        String form = PromptFormats.named(format);
        Context c = read();
        blocks.recordShown();
        return PromptFormats.answer(form, metrics.prompt(c));
    }

    @GET
    @Path("fill")
    public FillCheck fill() {
        readable();
        return metrics.fill(read().checkFill());
    }

    /** Sets the estimate to the input tokens the provider reported for the last prompt. */
    @POST
    @Path("token-count")
    @Consumes(MediaType.APPLICATION_JSON)
    public FillCheck tokenCount(ContextJson.TokenCount body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        if (required(body).inputTokens() == null) {
            throw new Invalid("input-tokens-missing", "input_tokens", "Send input_tokens, the input token count "
                    + "the provider reported for the last prompt.");
        }
        return contexts.change(store(), id(), once(key, "POST", "/token-count", body), (current, cache) -> {
            Context c = open(existing(current));
            c.correctTokenCount(body.inputTokens());
            return new Edited<>(new Held(c.config(), c.state()), "context.token_count_corrected",
                    Map.of("input_tokens", body.inputTokens()), c.checkFill());
        });
    }

    /**
     * Compacts the steps so far with the context's strategy; a summarizing one asks the model its summarizer names
     * outside any lock, and lands only on the context it compacted (steps appended since stay live), else 409.
     */
    @POST
    @Path("compact")
    public ContextCompactions.Compacted compact(@HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        return compactions.compact(store(), id(), blocks::show, key, path("/compact"));
    }

    /** The tool outputs the next prompt will prune, so an agent can save what matters first. */
    @GET
    @Path("vulnerable-outputs")
    public Map<String, List<VulnerableOutput>> vulnerableOutputs() {
        readable();
        return Map.of("outputs", read().vulnerableOutputs());
    }

    /** Keeps a tool output in the context's cache and answers its short and full hash. */
    @POST
    @Path("tool-results")
    @Consumes(MediaType.APPLICATION_JSON)
    public ContextJson.Cached cacheToolResult(ContextJson.ToolResult body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        ContextJson.ToolResult b = required(body);
        String content = b.content() == null ? "" : b.content();
        String tool = b.toolName() == null ? "" : b.toolName();
        boolean file = b.filePath() != null && !b.filePath().isEmpty();
        if (!file && (b.fileMtimeNanos() != null || b.fileSize() != null)) {
            throw new Invalid("file-path-missing", "file_path", "file_mtime_nanos and file_size describe a file "
                    + "read; send file_path with them.");
        }
        return contexts.change(store(), id(), once(key, "POST", "/tool-results", body), (current, cache) -> {
            existing(current);
            int before = cache.size();
            String shortHash = file ? cache.storeFile(tool, b.filePath(), orZero(b.fileMtimeNanos()),
                    orZero(b.fileSize()), content) : cache.store(tool, content);
            CachedResult kept = cache.get(shortHash).orElseThrow();
            ContextJson.Cached answer = new ContextJson.Cached(kept.shortHash(), kept.hash());
            if (cache.size() == before) {
                return Edited.unchanged(answer);
            }
            return new Edited<>(current.get(), "context.tool_result_cached", cachedRecord(kept), answer);
        });
    }

    /** What {@code tool_result_read} answers for a cached output. */
    public record Read(String hash, String shortHash, String toolName, String text) {
    }

    /**
     * A window of a cached tool output: lines {@code start_line} (1) to {@code start_line + num_lines - 1} (500 at
     * most), or only {@code line}; the hash may be the short hash, the full hash or a prefix naming one result.
     */
    @GET
    @Path("tool-results/{hash}")
    public Read toolResult(@PathParam("hash") String hash, @QueryParam("start_line") String startLine,
            @QueryParam("num_lines") String numLines, @QueryParam("line") String line) {
        readable();
        if (hash == null || !hash.matches("[0-9a-f]{1,64}")) {
            throw new Invalid("hash-format", "hash", "A tool result's hash is 1 to 64 lower-case hex digits.");
        }
        int start = (int) Params.number(startLine, "start_line", 1, Integer.MAX_VALUE, 1);
        int count = (int) Params.number(numLines, "num_lines", 1, ToolResultRead.MAX_LINES, ToolResultRead.MAX_LINES);
        int only = (int) Params.number(line, "line", 1, Integer.MAX_VALUE, 0);
        CachedResult found = reads.find(store(), id(), hash).orElseThrow(() -> NotFound.toolResult(contextId, hash));
        ToolResultRead.Answer answer = ToolResultRead.read(found, hash, start, count, only);
        return new Read(found.hash(), found.shortHash(), found.toolName(), answer.text());
    }

    // ------------------------------------------------------------------------------------------------- helpers

    /** Changes an existing context with {@code how}, journaled as {@code kind} with {@code record}. */
    private ContextJson.View edit(Optional<PgContexts.Once<ContextJson.View>> once, String kind,
            Map<String, Object> record, java.util.function.Consumer<Context> how) {
        return contexts.change(store(), id(), once, (current, cache) -> {
            Context c = open(existing(current));
            how.accept(c);
            return new Edited<>(new Held(c.config(), c.state()), kind, record, view(c));
        });
    }

    /**
     * The steps of {@code given} as the context stores them from place {@code from} on (a call without an id has its
     * generated one, {@link Step#withCallIdAt}, so a step marked {@code cache} is a tool step to the cache too and
     * the journal records the id the prompts show), keeping the observation of each tool step marked {@code cache}
     * in the cache.
     */
    private static List<Step> cached(List<ContextJson.StepBody> given, int from, ToolResultCache cache) {
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

    private static Map<String, Object> cachedRecord(CachedResult r) {
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

    private static List<ContextJson.StepBody> steps(ContextJson.Steps body) {
        List<ContextJson.StepBody> given = required(body).steps();
        if (given == null) {
            throw new Invalid("steps-missing", "steps", "Send {\"steps\": [...]}, the steps in order.");
        }
        if (given.size() > PgContexts.MAX_STEPS) {
            throw new Invalid("steps-count", "steps", "A request carries at most " + PgContexts.MAX_STEPS
                    + " steps, not " + given.size() + ".");
        }
        given.forEach(ContextResource::required);
        given.forEach(ContextJson.StepBody::toStep);
        return given;
    }

    private Context read() {
        return open(contexts.get(store(), id()));
    }

    private Context open(Held held) {
        return open(held.config(), held);
    }

    /** The context {@code held} describes, under {@code config}, showing its memory block. */
    private Context open(ContextConfig config, Held held) {
        TokenCounter counter = TokenCounter.named(config.tokenCounter());
        Context c = Context.restore(config, counter, CompactionStrategy.of(config.strategy(), null, counter),
                held.state());
        blocks.show(c);
        return c;
    }

    private Held existing(Optional<Held> current) {
        return current.orElseThrow(() -> NotFound.context(contextId));
    }

    private ContextJson.View view(Context c) {
        return new ContextJson.View(contextId, ContextJson.ConfigView.of(c.config()), c.checkFill(), c.steps().size(),
                c.compactedPrefix().isPresent(), c.compactedThroughIndex(), c.pendingInterjection());
    }

    /** A change answered 200 with what it returns, at most once under {@code key} if one was sent. */
    private <T> Optional<PgContexts.Once<T>> once(String key, String method, String suffix, Object body) {
        return keys.once(key, method, path(suffix), body, t -> 200, t -> t);
    }

    /** The path of this context, and {@code suffix} after it: what a key's request is identified by. */
    private String path(String suffix) {
        return "/v1/stores/" + storeId + "/contexts/" + contextId + suffix;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private String store() {
        return Params.store(storeId);
    }

    private String id() {
        MemoryRules.checkId(contextId, "context_id");
        return contextId;
    }

    private void readable() {
        gate.checkReadsMemories(store());
        id();
        blocks = memory.blocks(store(), contextId);
    }

    private void writable() {
        gate.checkChangesMemories(store());
        id();
        blocks = memory.blocksForChange(store(), contextId);
    }

    private static <T> T required(T body) {
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty; send a JSON object.");
        }
        return body;
    }
}
