package dev.engram.contexts.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.SummarizerChoice;
import org.junit.jupiter.api.Test;

/** A context's configuration as the {@code context} table keeps it, read back, also as an earlier Engram wrote it. */
class ContextRecordsTest {

    @Test
    void aConfigurationWrittenBeforeSummarizerChoicesAsksTheServersSummarizer() {
        String written = "{\"model\":{\"context_window\":8000,\"output_limit\":1000},\"safety_margin_percent\":5,"
                + "\"thresholds\":{\"predictive_percent\":85,\"warning_percent\":92,\"emergency_percent\":98},"
                + "\"strategy\":{\"name\":\"summarization\",\"keep_first\":0,\"keep_last\":2,\"block_size\":5,"
                + "\"observation_truncate\":0,\"distant\":0.0,\"middle\":0.0,\"recent\":0.0,"
                + "\"max_summarize_tokens\":0},\"pruning\":{\"keep_last_n\":0,\"protected_tools\":[],"
                + "\"placeholder_text\":\"\",\"threshold_percent\":0.0},\"history_mutation\":"
                + "{\"tool_result_eviction_step\":0,\"evict_step_status\":false,\"dedup_repeated_reads\":false},"
                + "\"injection_defense\":false,\"token_counter\":\"simple\"}";
        ContextConfig config = ContextRecords.config(written);
        assertEquals(SummarizerChoice.SERVER, config.strategy().summarizer());
        assertEquals(5, config.strategy().blockSize());
    }

    @Test
    void aChosenModelOrNoneIsKept() {
        for (SummarizerChoice choice : new SummarizerChoice[] {SummarizerChoice.NONE,
            SummarizerChoice.model("gpt-4o-mini"), SummarizerChoice.SERVER}) {
            ContextConfig config = ContextConfig.defaults().withStrategy(StrategySettings.named("hierarchical")
                    .withSummarizer(choice));
            assertEquals(config, ContextRecords.config(ContextRecords.json(config)));
        }
    }
}
