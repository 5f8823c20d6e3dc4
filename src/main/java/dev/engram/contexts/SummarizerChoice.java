package dev.engram.contexts;

import dev.engram.kernel.Invalid;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which summarizer a context's summarizing strategy asks: the server's ({@code server}, the default), none
 * ({@code none}: the reference's fallback texts), or another model of the server's provider ({@code model}, named by
 * {@code model}). Only a model's name can be chosen here: where a model is reached and with which key stays the
 * server's setting, so that whoever may write a context cannot make the server call another host.
 *
 * @param kind {@code server}, {@code none} or {@code model}
 * @param model the model's name for {@code model}, else ""
 */
public record SummarizerChoice(String kind, String model) {

    /** The kinds of choice. */
    public static final List<String> KINDS = List.of("server", "none", "model");
    /** The server's summarizer, as configured (none when the server configures no model). */
    public static final SummarizerChoice SERVER = new SummarizerChoice("server", "");
    /** No summarizer: the strategies' fallback texts. */
    public static final SummarizerChoice NONE = new SummarizerChoice("none", "");
    /** The longest model name accepted. */
    public static final int MAX_MODEL_LENGTH = 200;

    private static final Pattern MODEL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@+-]*");

    public SummarizerChoice {
        kind = kind == null || kind.isEmpty() ? "server" : kind;
        model = model == null ? "" : model;
        if (!KINDS.contains(kind)) {
            throw new Invalid("summarizer-unknown", "strategy.summarizer", "The summarizer is \"server\" (the "
                    + "server's), \"none\" (the fallback texts) or {\"model\": \"...\"}, not \"" + kind + "\".");
        }
        if (kind.equals("model") != !model.isEmpty()) {
            throw new Invalid("summarizer-model", "strategy.summarizer.model", kind.equals("model")
                    ? "Name the model: {\"model\": \"gpt-4o-mini\"}." : "Only {\"model\": ...} names a model.");
        }
        if (model.length() > MAX_MODEL_LENGTH || (!model.isEmpty() && !MODEL_NAME.matcher(model).matches())) {
            throw new Invalid("summarizer-model", "strategy.summarizer.model", "A model's name is 1 to "
                    + MAX_MODEL_LENGTH + " letters, digits and . _ : / @ + - (starting with a letter or digit), such "
                    + "as gpt-4o-mini or llama3.1:8b.");
        }
    }

    /** The server's provider with the model {@code name}. */
    public static SummarizerChoice model(String name) {
        return new SummarizerChoice("model", name);
    }
}
