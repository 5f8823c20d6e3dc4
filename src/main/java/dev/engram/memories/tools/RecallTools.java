package dev.engram.memories.tools;

import dev.engram.tools.Arguments;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.memories.Bank;
import dev.engram.memories.Memory;
import dev.engram.memories.Saved;
import dev.engram.memories.Recall;
import dev.engram.memories.Scored;
import dev.engram.memories.SearchOptions;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The two tools over a bank's memories, beside the four over entries: {@code memory_remember} saves one typed fact,
 * {@code memory_recall} finds the bank's memories that answer a query, best first. The bank is the connection's: a
 * model never names it, so it cannot reach another.
 */
public final class RecallTools {

    /** Saves a typed memory. */
    public static final String REMEMBER = "memory_remember";
    /** Searches the bank's memories. */
    public static final String RECALL = "memory_recall";
    /** The most results a recall asks for. */
    static final int MAX_RESULTS = 20;
    /** The results a recall gives when it names no number. */
    static final int DEFAULT_RESULTS = 5;

    private final Recall recall;
    private final Bank bank;

    public RecallTools(Recall recall, Bank bank) {
        this.recall = recall;
        this.bank = bank;
    }

    /** Whether {@code name} is one of these tools. */
    public static boolean handles(String name) {
        return REMEMBER.equals(name) || RECALL.equals(name);
    }

    /** Whether {@code name} writes. */
    public static boolean writes(String name) {
        return REMEMBER.equals(name);
    }

    /** The two tools' definitions, the same in every bank. */
    public static List<ToolDefinition> definitions() {
        Map<String, Object> remember = new LinkedHashMap<>();
        remember.put("content", Map.of("type", "string", "description", "The fact itself, one per memory, in a "
                + "sentence or two that will make sense on its own later"));
        remember.put("type", Map.of("type", "string", "enum", Memory.TYPES, "description", "What kind of memory: a "
                + "fact (the default), a skill, a pattern, a context, a preference or an observation"));
        remember.put("importance", Map.of("type", "number", "minimum", 0, "maximum", 1, "description", "How much it "
                + "matters, from 0 to 1 (0.5 when left out); recall ranks important memories higher"));
        remember.put("tags", Map.of("type", "array", "items", Map.of("type", "string"), "description", "Short labels "
                + "that recall also matches"));
        Map<String, Object> find = new LinkedHashMap<>();
        find.put("query", Map.of("type", "string", "maxLength", dev.engram.entries.Match.MAX_QUERY_CHARS,
                "description", "What to recall, as a question or a few words; memories are found by meaning and "
                        + "by their words"));
        find.put("top_k", Map.of("type", "integer", "minimum", 1, "maximum", MAX_RESULTS, "description", "How many "
                + "memories at most (" + DEFAULT_RESULTS + " when left out)"));
        find.put("type", Map.of("type", "string", "enum", Memory.TYPES, "description", "Only memories of this kind"));
        return List.of(
                new ToolDefinition(REMEMBER, "Remember a fact", "Save one typed memory (a fact, preference, skill, "
                        + "...) in this conversation's memory bank, to recall later by relevance. Save facts worth "
                        + "keeping beyond this conversation; one fact per call.", schema(remember, List.of("content")),
                        new ToolDefinition.Annotations(false, false, false, false)),
                new ToolDefinition(RECALL, "Recall memories", "Find the memories of this conversation's bank that "
                        + "answer a query, best first, each with its type, importance and score. Use it before "
                        + "answering from memory.", schema(find, List.of("query")),
                        new ToolDefinition.Annotations(true, false, true, false)));
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        s.put("required", required);
        s.put("additionalProperties", false);
        return s;
    }

    /** Runs one call; mistakes are tool errors with text a model can act on. */
    public ToolResult call(String name, Map<String, Object> arguments) {
        return call(name, arguments, Optional.empty()).value();
    }

    /**
     * Runs one call, a remember at most once under {@code key}: a retry under it is {@link Saved.Replayed}, writing
     * nothing, with the first call's text as its reply (and as its result's output); every other call is
     * {@link Saved.Landed}, tool errors included.
     */
    public Saved<ToolResult> call(String name, Map<String, Object> arguments, Optional<IdempotencyKey> key) {
        Arguments args = new Arguments(arguments == null ? Map.of() : arguments);
        try {
            return switch (name == null ? "" : name) {
                case REMEMBER -> remember(args, key);
                case RECALL -> new Saved.Landed<>(find(args));
                default -> new Saved.Landed<>(ToolResult.error("invalid", "There is no tool \"" + name + "\" here."));
            };
        } catch (Arguments.Refused | Invalid e) {
            return new Saved.Landed<>(ToolResult.error("invalid", e.getMessage()));
        } catch (Limited e) {
            return new Saved.Landed<>(ToolResult.error("quota", e.getMessage()));
        }
    }

    private Saved<ToolResult> remember(Arguments args, Optional<IdempotencyKey> key) {
        args.only("content", "type", "importance", "tags");
        String content = args.string("content", true);
        String type = args.string("type", false);
        double importance = args.number("importance", 0, 1).orElse(0.0);
        Memory draft = new Memory(UUID.randomUUID().toString(), bank, type, content, importance,
                args.strings("tags").orElse(List.of()), List.of(), "inferred", 0, List.of(), null, null, "", false,
                false, null, "", 0, null, null, null, List.of());
        Memory m = draft.saved(Instant.EPOCH);
        String said = "Remembered " + m.id() + " in " + bank.bankId() + " (" + m.type() + ", importance "
                + two(m.importance()) + ").";
        if (key.isPresent() && recall.save(draft, key.get().reply(said)) instanceof Saved.Replayed<Memory> r) {
            return new Saved.Replayed<>(ToolResult.text(r.reply()), r.reply());
        }
        if (key.isEmpty()) {
            recall.save(draft);
        }
        return new Saved.Landed<>(ToolResult.text(said));
    }

    private ToolResult find(Arguments args) {
        args.only("query", "top_k", "type");
        String query = args.string("query", true);
        int topK = args.integer("top_k", 1, MAX_RESULTS).orElse(DEFAULT_RESULTS);
        String type = args.string("type", false);
        if (type != null && !Memory.TYPES.contains(type)) {
            throw new Arguments.Refused("type must be one of " + String.join(", ", Memory.TYPES) + ".");
        }
        List<Scored> found = recall.search(new SearchOptions(query, topK, 0, false, false, type,
                List.of(bank.bankId())));
        if (found.isEmpty()) {
            return ToolResult.text("No memory of " + bank.bankId() + " matches \"" + query + "\". Try other words, "
                    + "or fewer.");
        }
        StringBuilder b = new StringBuilder();
        int n = 1;
        for (Scored s : found) {
            Memory m = s.memory();
            b.append(n++).append(". [").append(m.type()).append(", importance ").append(two(m.importance()))
                    .append(", score ").append(two(s.score())).append("] ").append(m.content().strip())
                    .append(" (id ").append(m.id()).append(")\n");
        }
        return ToolResult.text(b.toString().stripTrailing());
    }

    private static String two(double d) {
        return new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
