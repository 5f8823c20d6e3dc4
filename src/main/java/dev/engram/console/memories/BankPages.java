package dev.engram.console.memories;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Gate;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.kernel.NotFound;
import dev.engram.llm.Reflectors;
import dev.engram.memories.Bank;
import dev.engram.memories.BankSettings;
import dev.engram.memories.BankSummary;
import dev.engram.memories.ContextSlots;
import dev.engram.memories.Entrypoint;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.memories.Recalls;
import dev.engram.memories.Reflected;
import dev.engram.ops.EngramConfig;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.jboss.resteasy.reactive.RestForm;

/**
 * A store's banks, a page at a time, and one bank: its entrypoint and its context string as the API answers them
 * ({@code GET .../banks/{bank}/entrypoint} and {@code .../context}, with their defaults), its slots a page at a time,
 * its settings, and the form that reflects it, whose result the page shows after the reflection.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/banks")
@Produces(MediaType.TEXT_HTML)
public class BankPages {

    @CheckedTemplate(basePath = "console/memories", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance banks(Chrome chrome, String store, List<BankSummary> banks, String next);

        static native TemplateInstance bank(Chrome chrome, String store, String bank, String entrypoint,
                String context, List<Slot> slots, String nextSlots, BankSettings settings, boolean writes,
                String defaultReflector, ReflectionShown reflected);
    }

    /** A slot of the bank: its name, its size in characters and the start of its text. */
    public record Slot(String name, int characters, String text, boolean cut) {
    }

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    @Inject
    Reflectors reflectors;

    /** The characters of a slot's text its row shows. */
    static final int SLOT_SHOWN = 600;

    /** A page of the store's banks, by id, after {@code after}. */
    @GET
    public TemplateInstance banks(@PathParam("store") String storeId, @QueryParam("after") String after) {
        String store = MemoryGrants.reading(gate, storeId);
        String from = after == null || after.isEmpty() ? "" : Bank.parse(after).bankId();
        int n = config.console().pageSize();
        List<BankSummary> page = recalls.in(store).banks(from, n + 1);
        String next = page.size() > n ? page.get(n - 1).bankId() : null;
        return Templates.banks(request.chrome(), store, page.subList(0, Math.min(n, page.size())), next);
    }

    /**
     * The bank: its entrypoint, context string, slots (after {@code slotsAfter}), settings and, after a reflection,
     * what it did (read from the parameters {@link #reflect} sends back, each checked).
     */
    @GET
    @Path("{bank}")
    public TemplateInstance bank(@PathParam("store") String storeId, @PathParam("bank") String bankId,
            @QueryParam("slots_after") String slotsAfter, @QueryParam("reflected") String reflector,
            @QueryParam("created") String created, @QueryParam("updated") String updated,
            @QueryParam("reviewed") String reviewed, @QueryParam("waiting") String waiting,
            @QueryParam("new") List<String> newIds, @QueryParam("superseded") List<String> superseded) {
        String store = MemoryGrants.reading(gate, storeId);
        Bank bank = Bank.parse(bankId);
        Recall recall = recalls.in(store);
        String entrypoint = Entrypoint.render(null, bank.bankId(), Instant.now(),
                recall.top(bank, Entrypoint.DEFAULT_TOP_N, false, false));
        Map<String, String> ordered = new LinkedHashMap<>();
        for (String slot : ContextSlots.DEFAULT_ORDER) {
            recall.slot(bank, slot).ifPresent(text -> ordered.put(slot, text));
        }
        String context = ContextSlots.build(ContextSlots.DEFAULT_ORDER, ordered);
        int n = config.console().pageSize();
        String from = slotsAfter == null || slotsAfter.isEmpty() ? "" : slot(slotsAfter);
        SortedMap<String, String> slots = recall.slots(bank, from, n + 1);
        List<Slot> shown = slots.entrySet().stream().limit(n).map(e -> new Slot(e.getKey(), e.getValue().length(),
                cut(e.getValue()), e.getValue().length() > SLOT_SHOWN)).toList();
        String nextSlots = slots.size() > n ? shown.get(n - 1).name() : null;
        BankSettings settings = settings(recall, bank).orElse(null);
        ReflectionShown reflected = ReflectionShown.read(recall, reflector, created, updated, reviewed, waiting,
                newIds, superseded, n);
        return Templates.bank(request.chrome(), store, bank.bankId(), entrypoint, context, shown, nextSlots,
                settings, MemoryGrants.changes(gate, store), reflectors.defaultName(), reflected);
    }

    /**
     * Reflects the bank with the reflector named ({@code reflector}; empty for the default): 303 to the bank's page,
     * which shows what the reflection did.
     */
    @POST
    @Path("{bank}/reflect")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response reflect(@PathParam("store") String storeId, @PathParam("bank") String bankId,
            @RestForm("reflector") String reflector, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = MemoryGrants.changing(gate, storeId);
        Bank bank = Bank.parse(bankId);
        Reflected r = reflectors.reflect(recalls.in(store), bank, reflector == null || reflector.isBlank() ? null
                : reflector.strip());
        StringBuilder to = new StringBuilder(path(store, bank.bankId())).append("?reflected=")
                .append(encode(r.reflector())).append("&created=").append(r.created()).append("&updated=")
                .append(r.updated()).append("&reviewed=").append(r.reviewed()).append("&waiting=")
                .append(r.waiting());
        r.newIds().stream().limit(config.console().pageSize()).forEach(id -> to.append("&new=").append(encode(id)));
        r.superseded().stream().limit(config.console().pageSize())
                .forEach(id -> to.append("&superseded=").append(encode(id)));
        return Response.seeOther(URI.create(to.toString())).build();
    }

    /** The page of bank {@code bankId} of {@code store}. */
    static String path(String store, String bankId) {
        return ConsoleDoor.ROOT + "/stores/" + store + "/banks/" + encode(bankId);
    }



    private static Optional<BankSettings> settings(Recall recall, Bank bank) {
        try {
            return Optional.of(recall.settings(bank));
        } catch (NotFound never) {
            return Optional.empty();
        }
    }

    private static String slot(String name) {
        MemoryRules.checkSlot(name);
        return name;
    }

    private static String cut(String text) {
        if (text.length() <= SLOT_SHOWN) {
            return text;
        }
        return text.substring(0, Character.isHighSurrogate(text.charAt(SLOT_SHOWN - 1)) ? SLOT_SHOWN - 1
                : SLOT_SHOWN);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
