package dev.engram.contexts.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.contexts.Context;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.ContextEdits;
import dev.engram.contexts.Step;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.persistence.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** A context's steps as rows (V12): a change writes only the steps it changed, and a state from before V12 reads. */
@QuarkusTest
class PgContextStepsTest {

    @Inject
    PgContexts contexts;

    @Inject
    AgroalDataSource dataSource;

    private final String store = "steps-" + UUID.randomUUID();

    @Test
    void an_append_inserts_the_new_steps_and_leaves_the_old_rows_alone() throws SQLException {
        create("c");
        edit("c", c -> steps(3).forEach(c::addStep));
        List<String> before = rowVersions("c");

        edit("c", c -> c.addStep(step(3)));

        List<String> after = rowVersions("c");
        assertEquals(4, after.size());
        assertEquals(before, after.subList(0, 3), "the first three rows are the same row versions");
        assertEquals(steps(4), contexts.get(store, "c").state().steps());
    }

    @Test
    void an_append_that_reads_no_step_lands_after_them_and_keeps_the_compacted_index() throws SQLException {
        create("c");
        edit("c", c -> steps(3).forEach(c::addStep));
        edit("c", Context::compact);
        List<String> before = rowVersions("c");

        Context seen = appendOnly("c", c -> c.addStep(step(3)));

        assertEquals(4, seen.steps().size());
        assertEquals(before, rowVersions("c").subList(0, 3));
        Held held = contexts.get(store, "c");
        assertEquals(steps(4), held.state().steps());
        assertEquals(3, held.state().compactedThroughIndex());
    }

    @Test
    void an_append_that_changes_a_step_it_did_not_read_is_refused_and_writes_nothing() throws SQLException {
        create("c");
        edit("c", c -> steps(2).forEach(c::addStep));

        assertThrows(IllegalStateException.class, () -> appendOnly("c", c -> c.seedSteps(steps(3))));

        assertEquals(steps(2), contexts.get(store, "c").state().steps());
        assertEquals(2, rowVersions("c").size());
    }

    @Test
    void a_replacement_rewrites_from_the_first_changed_step_and_leaves_no_row_behind() throws SQLException {
        create("c");
        edit("c", c -> steps(5).forEach(c::addStep));
        List<String> before = rowVersions("c");
        List<Step> seeded = new ArrayList<>(steps(2));
        seeded.add(Step.thought("another third step"));

        edit("c", c -> c.seedSteps(seeded));

        List<String> after = rowVersions("c");
        assertEquals(3, after.size());
        assertEquals(before.subList(0, 2), after.subList(0, 2));
        assertNotEquals(before.get(2), after.get(2));
        assertEquals(seeded, contexts.get(store, "c").state().steps());
        assertEquals(1, count("select count(*) from context where store_id = ? and id = 'c' and steps = 3"));
    }

    @Test
    void a_compaction_keeps_the_index_it_covers_across_a_read() {
        create("c");
        edit("c", c -> steps(4).forEach(c::addStep));
        edit("c", Context::compact);
        edit("c", c -> c.addStep(step(4)));

        Held held = contexts.get(store, "c");
        assertTrue(held.state().compacted());
        assertEquals(4, held.state().compactedThroughIndex());
        assertEquals(5, held.state().steps().size());
    }

    @Test
    void a_state_written_before_steps_were_rows_is_read_and_moved_to_rows_on_the_next_change() throws SQLException {
        Context old = Context.of(ContextConfig.defaults(), null);
        steps(2).forEach(old::addStep);
        new Sql(dataSource).connected(tx -> {
            tx.update("insert into store (id, seq, max_entry_bytes) values (?, 0, 4096)", store);
            return tx.update("insert into context (store_id, id, config, state, steps, created_at, updated_at) "
                    + "values (?, 'old', ?::jsonb, ?, 2, now(), now())", store,
                    ContextRecords.json(old.config()), ContextRecords.json(old.state()));
        });
        assertEquals(steps(2), contexts.get(store, "old").state().steps());

        edit("old", c -> c.addStep(step(2)));

        assertEquals(3, rowVersions("old").size());
        assertEquals(1, count("select count(*) from context where store_id = ? and id = 'old' "
                + "and state like '%\"steps\":[]%'"));
        assertEquals(steps(3), contexts.get(store, "old").state().steps());
    }

    @Test
    void deleting_a_context_deletes_its_steps() throws SQLException {
        create("c");
        edit("c", c -> steps(2).forEach(c::addStep));
        contexts.change(store, "c", (current, cache) -> new Edited<>(null, "context.deleted", Map.of(), null));

        assertTrue(rowVersions("c").isEmpty());
    }

    private void create(String id) {
        contexts.change(store, id, ContextEdits.configure(ContextConfig.defaults()));
    }

    private void edit(String id, Consumer<Context> change) {
        contexts.change(store, id, ContextEdits.edit("context.test", change));
    }

    /** Runs {@code change} as an append (its steps unread) and answers the context it changed. */
    private Context appendOnly(String id, Consumer<Context> change) {
        return contexts.append(store, id, ContextEdits.edit("context.test", change));
    }

    private static List<Step> steps(int n) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            steps.add(step(i));
        }
        return steps;
    }

    private static Step step(int i) {
        return Step.tool("step " + i, new ToolCall("call-" + i, "read_file", "{\"path\":\"f" + i + "\"}"),
                "line " + i);
    }

    /** The row versions (ctid and xmin) of the context's steps, in order: a rewritten row gets a new one. */
    private List<String> rowVersions(String id) throws SQLException {
        List<String> versions = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
                "select ctid::text || '/' || xmin::text from context_step where store_id = ? and context_id = ? "
                        + "order by idx")) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    versions.add(r.getString(1));
                }
            }
        }
        return versions;
    }

    private int count(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, store);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }
}
