package dev.engram.stores.files.persistence;

import dev.engram.persistence.Sql;
import java.sql.SQLException;

/**
 * A context as one line of {@code _engram/contexts.jsonl}: its row (store aside) with {@code step_rows}, its steps'
 * stored texts in order, and {@code tool_results}, its cached tool outputs' rows; written back as the same rows.
 */
final class Contexts {

    /** The line of context {@code c}, as SQL over its row. */
    static final String LINE = "(to_jsonb(c) - 'store_id' || jsonb_build_object("
            + "'step_rows', coalesce((select jsonb_agg(s.step order by s.idx) from context_step s "
            + "where s.store_id = c.store_id and s.context_id = c.id), '[]'::jsonb), "
            + "'tool_results', coalesce((select jsonb_agg(to_jsonb(t) - 'store_id' - 'context_id' order by t.short_hash) "
            + "from tool_result t where t.store_id = c.store_id and t.context_id = c.id), '[]'::jsonb)))";

    private Contexts() {
    }

    /** Whether the store holds context {@code id} and, if it does, whether as {@code line} says. */
    static java.util.Optional<Boolean> same(Sql.Tx tx, String store, String id, String line) throws SQLException {
        return tx.first("select " + LINE + " = ?::jsonb from context c where c.store_id = ? and c.id = ?",
                r -> r.getBoolean(1), line, store, id);
    }

    /** Writes the context {@code line} describes, with its steps and cached outputs. */
    static void insert(Sql.Tx tx, String store, String id, String line) throws SQLException {
        tx.update("insert into context select (jsonb_populate_record(null::context, (?::jsonb - 'step_rows' "
                + "- 'tool_results') || jsonb_build_object('store_id', ?::text))).*", line, store);
        tx.update("insert into context_step (store_id, context_id, idx, step) select ?, ?, (o.n - 1)::integer, o.s "
                + "from jsonb_array_elements_text(?::jsonb -> 'step_rows') with ordinality as o(s, n)", store, id,
                line);
        tx.update("insert into tool_result select (jsonb_populate_record(null::tool_result, t.value "
                + "|| jsonb_build_object('store_id', ?::text, 'context_id', ?::text))).* "
                + "from jsonb_array_elements(?::jsonb -> 'tool_results') as t", store, id, line);
    }
}
