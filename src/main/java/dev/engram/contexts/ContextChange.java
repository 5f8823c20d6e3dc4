package dev.engram.contexts;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A change of a context as its journal record tells it (docs/journal-format.md), without what the change carried
 * (steps, texts, a configuration): its seq in the store's journal, its kind ({@code context.steps_appended} ...),
 * when it was made, the fill after it, and what a compaction did.
 *
 * @param fill the fill after the change; empty for a record that carries none (a cached tool result, a deletion,
 *     or a record written before records carried it)
 * @param compaction what the change compacted; empty unless its kind is {@value #COMPACTED}
 */
public record ContextChange(long seq, String kind, Instant at, Optional<FillCheck> fill,
        Optional<Compacted> compaction) {

    /** The kind of a compaction's record. */
    public static final String COMPACTED = "context.compacted";
    /** The kind of a deletion's record. */
    public static final String DELETED = "context.deleted";

    public ContextChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(fill, "fill");
        Objects.requireNonNull(compaction, "compaction");
    }

    /**
     * The change that the record {@code record} of {@code kind} tells, its members as a store holds them: as the
     * edit made them ({@link FillCheck}, boxed numbers, lists) or as read back from their JSON (maps, numbers,
     * lists). A member missing or of another type is taken as absent.
     */
    public static ContextChange of(long seq, String kind, Instant at, Map<String, Object> record) {
        Optional<FillCheck> fill = fill(record.get(ContextStore.FILL));
        Optional<Compacted> compaction = Optional.empty();
        if (COMPACTED.equals(kind)) {
            Optional<CompactionStrategy.Replaced> replaced = Optional.empty();
            if (record.get("replaced_from") instanceof Number from && record.get("replaced_to") instanceof Number to
                    && from.intValue() >= 0 && to.intValue() >= from.intValue()) {
                replaced = Optional.of(new CompactionStrategy.Replaced(from.intValue(), to.intValue()));
            }
            List<String> summaries = record.get("summaries") instanceof List<?> texts ? texts.stream()
                    .filter(String.class::isInstance).map(String.class::cast).toList() : List.of();
            compaction = Optional.of(new Compacted(text(record, "strategy"), number(record, "before_percent"),
                    number(record, "after_percent"), (int) number(record, "compacted_through_index"),
                    Boolean.TRUE.equals(record.get("summarized")), text(record, "model"),
                    (int) number(record, "summary_failures"), text(record, "summary_error"), replaced, summaries));
        }
        return new ContextChange(seq, kind, at, fill, compaction);
    }

    private static Optional<FillCheck> fill(Object member) {
        if (member instanceof FillCheck f) {
            return Optional.of(f);
        }
        if (member instanceof Map<?, ?> m && m.get("percent") instanceof Number percent
                && m.get("used") instanceof Number used && m.get("max") instanceof Number max) {
            Object status = m.get("status");
            Object available = m.get("available");
            return Optional.of(new FillCheck(percent.doubleValue(), status instanceof String s ? s : "",
                    used.intValue(), max.intValue(), available instanceof Number a ? a.intValue()
                    : Math.max(0, max.intValue() - used.intValue())));
        }
        return Optional.empty();
    }

    private static String text(Map<String, Object> record, String member) {
        return record.get(member) instanceof String s ? s : "";
    }

    private static double number(Map<String, Object> record, String member) {
        return record.get(member) instanceof Number n ? n.doubleValue() : 0;
    }

    /**
     * What one compaction did, as its record tells it: the strategy that ran, the fill before and after, how many
     * leading steps the new prefix stands for, whether a model gave at least one summary (the model's name and how
     * many blocks it failed on, "" and 0 when none was asked; {@code summaryError} "" when none), the steps the
     * prefix replaced with summaries or a note (empty for a record written before records carried them), and those
     * texts.
     */
    public record Compacted(String strategy, double beforePercent, double afterPercent, int compactedThroughIndex,
            boolean summarized, String model, int summaryFailures, String summaryError,
            Optional<CompactionStrategy.Replaced> replaced, List<String> summaries) {

        public Compacted {
            strategy = strategy == null ? "" : strategy;
            model = model == null ? "" : model;
            summaryError = summaryError == null ? "" : summaryError;
            Objects.requireNonNull(replaced, "replaced");
            summaries = summaries == null ? List.of() : List.copyOf(summaries);
        }
    }
}
