package dev.engram.memories.rest;

import dev.engram.rest.Params;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.memories.Bank;
import dev.engram.memories.BankSettings;
import dev.engram.memories.ContextSlots;
import dev.engram.memories.Entrypoint;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.memories.Recalls;
import dev.engram.memories.Reflected;
import dev.engram.memories.rank.Ranking;
import dev.engram.llm.Reflectors;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A bank of a store: its entrypoint (a Markdown digest of its most important memories), its context slots and the
 * context string they make, and its settings. Reading takes a grant that reads every scope, changing one that writes
 * every scope, as for memories.
 */
@Path("/v1/stores/{store}/banks/{bank}")
public class BankResource {

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    Reflectors reflectors;

    @PathParam("store")
    String storeId;

    @PathParam("bank")
    String bankId;

    /** A slot's text. */
    public record SlotJson(String slot, String text) {
    }

    /** {@code PUT .../slots/{slot}} and {@code POST .../append}: the text. */
    public record SlotBody(String text) {
    }

    /** A bank's settings. */
    public record SettingsJson(String bank, String mission, List<String> directives, int skepticism, int literalism,
            int empathy, String ranking) {
    }

    /** {@code PUT .../config}. */
    public record SettingsBody(String mission, List<String> directives, Integer skepticism, Integer literalism,
            Integer empathy, String ranking) {
    }

    /** {@code POST .../reflect}: which reflector (null: the configured default). */
    public record ReflectBody(String reflector) {
    }

    /** What a reflection did. */
    public record ReflectedJson(int created, int updated, int reviewed, List<String> newIds, String reflector,
            String note) {
    }

    /**
     * Consolidates the bank's new facts into observations (SPEC §7), at once or not at all. Safe to retry: facts an
     * observation cites are not candidates again.
     */
    @POST
    @Path("reflect")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public ReflectedJson reflect(ReflectBody body) {
        writable();
        Reflected r = reflectors.reflect(recall(), bank(), body == null ? null : body.reflector());
        return new ReflectedJson(r.created(), r.updated(), r.reviewed(), r.newIds(), r.reflector(), r.note());
    }

    /** The entrypoint, as Markdown. */
    @GET
    @Path("entrypoint")
    @Produces("text/markdown")
    public RestResponse<String> entrypoint(@QueryParam("top_n") String topN, @QueryParam("title") String title,
            @QueryParam("include_archived") String archived, @QueryParam("include_stale") String stale) {
        readable();
        Bank bank = bank();
        int n = (int) Params.number(topN, "top_n", 1, Recall.MAX_LIMIT, Entrypoint.DEFAULT_TOP_N);
        if (title != null) {
            MemoryRules.checkText(title, "title");
        }
        String text = Entrypoint.render(title, bank.bankId(), Instant.now(),
                recall().top(bank, n, flag(archived, "include_archived"), flag(stale, "include_stale")));
        return RestResponse.ResponseBuilder.ok(text, "text/markdown; charset=utf-8").build();
    }

    /** The context string of the slots in {@code order} (comma-separated; the default order when absent). */
    @GET
    @Path("context")
    @Produces("text/markdown")
    public RestResponse<String> context(@QueryParam("order") String order) {
        readable();
        List<String> slots = order == null || order.isBlank() ? List.of() : Arrays.stream(order.split(","))
                .map(String::strip).toList();
        slots.forEach(MemoryRules::checkSlot);
        String text = ContextSlots.build(slots, recall().slots(bank()));
        return RestResponse.ResponseBuilder.ok(text, "text/markdown; charset=utf-8").build();
    }

    @GET
    @Path("slots/{slot}")
    @Produces(MediaType.APPLICATION_JSON)
    public SlotJson slot(@PathParam("slot") String slot) {
        readable();
        return new SlotJson(slot, recall().slot(bank(), slot).orElseThrow(() -> NotFound.slot(bankId, slot)));
    }

    @PUT
    @Path("slots/{slot}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public SlotJson setSlot(@PathParam("slot") String slot, SlotBody body) {
        writable();
        String text = text(body);
        recall().setSlot(bank(), slot, text);
        return new SlotJson(slot, text);
    }

    @POST
    @Path("slots/{slot}/append")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public SlotJson append(@PathParam("slot") String slot, SlotBody body) {
        writable();
        return new SlotJson(slot, recall().appendSlot(bank(), slot, text(body)));
    }

    @DELETE
    @Path("slots/{slot}")
    public RestResponse<Void> deleteSlot(@PathParam("slot") String slot) {
        writable();
        recall().deleteSlot(bank(), slot);
        return RestResponse.noContent();
    }

    @GET
    @Path("config")
    @Produces(MediaType.APPLICATION_JSON)
    public SettingsJson settings() {
        readable();
        return json(recall().settings(bank()));
    }

    @PUT
    @Path("config")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public SettingsJson configure(SettingsBody body) {
        writable();
        if (body == null) {
            throw new Invalid("body-missing", "", "Send {\"mission\": \"...\", \"directives\": [...], "
                    + "\"skepticism\": 3, \"literalism\": 2, \"empathy\": 1}.");
        }
        return json(recall().configure(bank(), new BankSettings(body.mission(), body.directives(),
                zeroIfAbsent(body.skepticism()), zeroIfAbsent(body.literalism()), zeroIfAbsent(body.empathy()),
                body.ranking() == null ? null : Ranking.parse(body.ranking(), "ranking"))));
    }

    private SettingsJson json(BankSettings s) {
        return new SettingsJson(bank().bankId(), s.mission(), s.directives(), s.skepticism(), s.literalism(),
                s.empathy(), s.ranking() == null ? Ranking.HYBRID.wire() : s.ranking().wire());
    }

    private Bank bank() {
        return Bank.parse(bankId);
    }

    private Recall recall() {
        return recalls.in(Params.store(storeId));
    }

    private void readable() {
        gate.checkReadsMemories(Params.store(storeId));
    }

    private void writable() {
        gate.checkChangesMemories(Params.store(storeId));
    }

    private static String text(SlotBody body) {
        if (body == null || body.text() == null) {
            throw new Invalid("text-missing", "text", "Send {\"text\": \"...\"}; \"\" is a text.");
        }
        return body.text();
    }

    private static int zeroIfAbsent(Integer n) {
        return n == null ? 0 : n;
    }

    private static boolean flag(String value, String field) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new Invalid("flag-form", field, field + " takes true or false.");
    }
}
