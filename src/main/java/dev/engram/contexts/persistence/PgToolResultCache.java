package dev.engram.contexts.persistence;

import dev.engram.persistence.Sql;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultCache;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * One context's tool-result cache in the {@code tool_result} table, on the connection of the change that holds the
 * context's row lock (or of a read). A short hash is the shortest prefix of the full hash, from 4 hex digits, that
 * no other entry of the context holds; entries are never evicted here, so a short hash is never reissued.
 */
final class PgToolResultCache implements ToolResultCache {

    /** Statements that throw {@link SQLException}, as the cache's methods run them. */
    @FunctionalInterface
    private interface Query<T> {
        T run() throws SQLException;
    }

    private static final String COLUMNS = "hash, short_hash, tool_name, content, file_backed, file_path, file_mtime, "
            + "file_size";

    private final Sql.Tx tx;
    private final String store;
    private final String context;

    PgToolResultCache(Sql.Tx tx, String store, String context) {
        this.tx = tx;
        this.store = store;
        this.context = context;
    }

    @Override
    public String keep(String full, String tool, String content, boolean file, String path, long mtime, long size) {
        ContextRules.checkToolResult(content, path);
        return run(() -> {
            Optional<String> known = shortHash("hash = ?", full);
            if (known.isPresent()) {
                return known.get();
            }
            String shortHash = full;
            for (int n = MIN_SHORT_HASH; n <= full.length(); n++) {
                String prefix = full.substring(0, n);
                if (shortHash("short_hash = ?", prefix).isEmpty()) {
                    shortHash = prefix;
                    break;
                }
            }
            tx.update("insert into tool_result (store_id, context_id, short_hash, hash, tool_name, content, "
                    + "file_backed, file_path, file_mtime, file_size, cached_at) "
                    + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())", store,
                    context, shortHash, full, tool == null ? "" : tool, content == null ? "" : content, file,
                    path == null ? "" : path, mtime, size);
            return shortHash;
        });
    }

    @Override
    public Optional<CachedResult> get(String hash) {
        if (hash == null || hash.isEmpty()) {
            return Optional.empty();
        }
        return run(() -> {
            Optional<CachedResult> exact = tx.first("select " + COLUMNS + " from tool_result where store_id = ? "
                    + "and context_id = ? and short_hash = ?", PgToolResultCache::row, store, context, hash);
            if (exact.isPresent()) {
                return exact;
            }
            String like = hash.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
            List<CachedResult> found = tx.list("select " + COLUMNS + " from tool_result where store_id = ? "
                    + "and context_id = ? and hash like ? limit 2", PgToolResultCache::row, store, context, like);
            return found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty();
        });
    }

    /** Not offered over this store: a persisted short hash stays valid for the context's life. */
    @Override
    public boolean evict(String hash) {
        throw new UnsupportedOperationException("The persisted tool-result cache does not evict");
    }

    @Override
    public int size() {
        return run(() -> tx.one("select count(*) from tool_result where store_id = ? and context_id = ?",
                r -> r.getInt(1), store, context));
    }

    private Optional<String> shortHash(String where, String value) throws SQLException {
        return tx.first("select short_hash from tool_result where store_id = ? and context_id = ? and " + where,
                r -> r.getString(1), store, context, value);
    }

    private static <T> T run(Query<T> query) {
        try {
            return query.run();
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private static CachedResult row(ResultSet r) throws SQLException {
        return new CachedResult(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getBoolean(5),
                r.getString(6), r.getLong(7), r.getLong(8));
    }
}
