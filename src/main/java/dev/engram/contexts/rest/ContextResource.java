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
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.VulnerableOutput;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.NotFound;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.contexts.ContextWrite;
import dev.engram.contexts.app.ContextWrites;
import org.jboss.resteasy.reactive.RestResponse;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A store's contexts (seed 004): one agent run's working memory each, kept in PostgreSQL, every change a record of
 * the store's journal. Like memories, contexts have no scope: reading one takes a grant that reads every scope of
 * the store, changing one a grant that writes every scope. Every change is made at most once under an
 * {@code Idempotency-Key}: a retry is answered with the first answer, status and body, marked
 * {@code Idempotent-Replayed} ({@link IdempotencyKeys#once}, {@link IdempotencyKeys#answer}).
 */
@Path("/v1/stores/{store}/contexts/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class ContextResource {

    @Inject
    ContextStore contexts;

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
        ContextWrite<ContextJson.View> write = contexts.change(store(), id(), keys.once(key, "PUT", path(""), body,
                v -> created[0] ? 201 : 200, v -> v), (current, cache) -> {
            created[0] = current.isEmpty();
            Context c = current.map(h -> open(config, h))
                    .orElseGet(() -> Context.of(config, null));
            blocks.show(c);
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("config", config);
            return Edited.of(c, "context.configured", record, view(c));
        });
        return keys.answer(write, created[0] ? 201 : 200);
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
        return keys.answer(contexts.change(store(), id(), keys.<Void>once(key, "DELETE", path(""), null, v -> 204,
                v -> null), (current, cache) -> {
            existing(current);
            return new Edited<>(null, "context.deleted", Map.of(), null);
        }), 204);
    }

    @PUT
    @Path("system-prompt")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> systemPrompt(ContextJson.Text body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        return setText(body, key, "/system-prompt", "context.system_prompt_set", text -> Map.of("parts",
                List.of(text.split(java.util.regex.Pattern.quote(Context.CACHE_BREAK), -1))), Context::setSystemPrompt);
    }

    @PUT
    @Path("plan")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> plan(ContextJson.Text body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        return setText(body, key, "/plan", "context.plan_set", text -> Map.of("text", text), Context::setPlan);
    }

    @PUT
    @Path("task")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> task(ContextJson.Task body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        String text = text(required(body).text());
        var content = body.toBlocks();
        return edit(once(key, "PUT", "/task", body), "context.task_set", Map.of("text", text, "blocks", content),
                c -> c.setTaskWithBlocks(text, content));
    }

    @PUT
    @Path("prior-conversation")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> priorConversation(ContextJson.Messages body,
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
    public RestResponse<ContextJson.View> interjection(ContextJson.Text body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        return setText(body, key, "/interjection", "context.interjection_set", text -> Map.of("text", text),
                Context::setPendingInterjection);
    }

    /** Consumes the pending interjection once a model has seen it; nothing is journaled when none is pending. */
    @DELETE
    @Path("interjection")
    public RestResponse<ContextJson.View> consumeInterjection(@HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        return ok(contexts.change(store(), id(), once(key, "DELETE", "/interjection", null),
                ContextWrites.consumeInterjection(contextId, this::open, this::view)));
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
        gate.checkChangesMemories(store());
        id();
        blocks = memory.blocksForAppend(store(), contextId);
        ContextAppends.Options options = ContextAppends.Options.of(prompt, compact);
        List<ContextJson.StepBody> given = ContextWrites.steps(body);
        ContextWrite<ContextAppends.Answer> answer = appends.append(store(), id(), options, key, path("/steps"), body,
                ContextWrites.append(contextId, given, this::open), blocks, this::read);
        return answer.fold(a -> IdempotencyKeys.replayed(RestResponse.ResponseBuilder.ok(a.appended()), a.replayed()),
                IdempotencyKeys::replay);
    }

    /** Replaces every step (a checkpoint resumed): the compacted prefix goes, the estimate is recounted. */
    @PUT
    @Path("steps")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ContextJson.View> replaceSteps(ContextJson.Steps body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        List<ContextJson.StepBody> given = ContextWrites.steps(body);
        return ok(contexts.change(store(), id(), once(key, "PUT", "/steps", body),
                ContextWrites.replace(contextId, given, this::open, this::view)));
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
    public RestResponse<FillCheck> tokenCount(ContextJson.TokenCount body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        ContextStore.Edit<FillCheck> correct = ContextWrites.correctTokenCount(contextId, body, this::open);
        return ok(contexts.change(store(), id(), once(key, "POST", "/token-count", body), correct));
    }

    /**
     * Compacts the steps so far with the context's strategy; a summarizing one asks the model its summarizer names
     * outside any lock, and lands only on the context it compacted (steps appended since stay live), else 409.
     */
    @POST
    @Path("compact")
    public RestResponse<ContextCompactions.Compacted> compact(@HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        return ok(compactions.compact(store(), id(), blocks::show, key, path("/compact")));
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
    public RestResponse<ContextJson.Cached> cacheToolResult(ContextJson.ToolResult body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        ContextStore.Edit<ContextJson.Cached> cache = ContextWrites.cache(contextId, body);
        return ok(contexts.change(store(), id(), once(key, "POST", "/tool-results", body), cache));
    }

    /**
     * A window of a cached tool output: lines {@code start_line} (1) to {@code start_line + num_lines - 1} (500 at
     * most), or only {@code line}; the hash may be the short hash, the full hash or a prefix naming one result.
     */
    @GET
    @Path("tool-results/{hash}")
    public ToolResultReads.Read toolResult(@PathParam("hash") String hash, @QueryParam("start_line") String startLine,
            @QueryParam("num_lines") String numLines, @QueryParam("line") String line) {
        readable();
        return reads.window(store(), id(), hash, startLine, numLines, line);
    }

    // ------------------------------------------------------------------------------------------------- helpers

    /** Changes an existing context with {@code how}, journaled as {@code kind} with {@code record}. */
    private RestResponse<ContextJson.View> edit(Optional<ContextStore.Once<ContextJson.View>> once, String kind,
            Map<String, Object> record, java.util.function.Consumer<Context> how) {
        return ok(contexts.change(store(), id(), once, (current, cache) -> {
            Context c = open(existing(current));
            how.accept(c);
            return Edited.of(c, kind, record, view(c));
        }));
    }

    /** Sets one text of an existing context from {@code body}, journaled as {@code kind} with its record. */
    private RestResponse<ContextJson.View> setText(ContextJson.Text body, String key, String path, String kind,
            Function<String, Map<String, Object>> record, BiConsumer<Context, String> set) {
        writable();
        String text = text(required(body).text());
        return edit(once(key, "PUT", path, body), kind, record.apply(text), c -> set.accept(c, text));
    }

    /** A change's answer, 200, or the first answer when it is a retry. */
    private <T> RestResponse<T> ok(ContextWrite<T> write) {
        return keys.answer(write, 200);
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
    private <T> Optional<ContextStore.Once<T>> once(String key, String method, String suffix, Object body) {
        return keys.once(key, method, path(suffix), body, t -> 200, t -> t);
    }

    /** The path of this context, and {@code suffix} after it: what a key's request is identified by. */
    private String path(String suffix) {
        return "/v1/stores/" + storeId + "/contexts/" + contextId + suffix;
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private String store() {
        return Params.store(storeId);
    }

    private String id() {
        ContextRules.checkId(contextId);
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
        return ContextWrites.required(body);
    }
}
