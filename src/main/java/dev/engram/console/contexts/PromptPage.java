package dev.engram.console.contexts;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.contexts.CompactionStrategy;
import dev.engram.contexts.Context;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.app.ContextMemory;
import dev.engram.contexts.app.PromptFormats;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.rest.JsonSetup;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * A context's prompt as each provider would receive it: the JSON {@code GET .../contexts/{id}/prompt?format=}
 * answers in that format, member for member, shown pretty-printed (escaped: it holds what agents and tools wrote),
 * with a link to each format. Viewing it records nothing: unlike the API's read, no session manifest is recorded for
 * the memory block it shows, as no model was shown it.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/contexts/{id}/prompt")
@Produces(MediaType.TEXT_HTML)
public class PromptPage {

    @CheckedTemplate(basePath = "console/contexts", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance prompt(Chrome chrome, String store, String id, List<Format> formats,
                String format, String json, int messages);
    }

    /** A format of the picker: its name, what it is for, and whether it is the one shown. */
    public record Format(String name, String label, boolean shown) {
    }

    @Inject
    ContextStore contexts;

    @Inject
    ContextMemory memory;

    @Inject
    ConsoleRequest request;

    @Inject
    JsonSetup json;

    @GET
    public TemplateInstance prompt(@PathParam("store") String storeId, @PathParam("id") String id,
            @QueryParam("format") String format) {
        String store = ContextGrants.reading(request, storeId, id).store();
        String shown = PromptFormats.named(format);
        ContextStore.Held held = contexts.get(store, id);
        TokenCounter counter = TokenCounter.named(held.config().tokenCounter());
        Context c = Context.restore(held.config(), counter, CompactionStrategy.of(held.config().strategy(), null,
                counter), held.state());
        memory.blocks(store, id).show(c);
        var messages = c.buildPrompt();
        List<Format> formats = PromptFormats.NAMES.stream().map(n -> new Format(n, label(n), n.equals(shown)))
                .toList();
        return Templates.prompt(request.chrome(), store, id, formats, shown,
                pretty(PromptFormats.answer(shown, messages)), messages.size());
    }

    private static String label(String format) {
        return switch (format) {
            case "openai-chat" -> "OpenAI Chat Completions";
            case "anthropic" -> "Anthropic Messages";
            default -> "Neutral messages";
        };
    }

    private String pretty(Object answer) {
        try {
            return json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a prompt always serialises", e);
        }
    }
}
