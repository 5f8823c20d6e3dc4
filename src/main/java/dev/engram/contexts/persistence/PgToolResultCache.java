package dev.engram.contexts.persistence;

import dev.engram.persistence.StoreUnavailable;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * One context's tool-result cache in the {@code tool_result} table, on the connection of the change that holds the
 * context's row lock (or of a read). A short hash is the shortest prefix of the full hash, from 4 hex digits, that
 * no other entry of the context holds; entries are never evicted here, so a short hash is never reissued.
 */
final class PgToolResultCache implements ToolResultCache {

    private final Connection c;
    private final String store;
    private final String context;

    PgToolResultCache(Connection c, String store, String context) {
        this.c = c;
        this.store = store;
        this.context = context;
    }

    @Override
    public String keep(String full, String tool, String content, boolean file, String path, long mtime, long size) {
        ContextRules.checkToolResult(content, path);
        try {
            Optional<String> known = one("select short_hash from tool_result where store_id = ? and context_id = ? "
                    + "and hash = ?", full);
            if (known.isPresent()) {
                return known.get();
            }
            String shortHash = full;
            for (int n = MIN_SHORT_HASH; n <= full.length(); n++) {
                String prefix = full.substring(0, n);
                if (one("select short_hash from tool_result where store_id = ? and context_id = ? "
                        + "and short_hash = ?", prefix).isEmpty()) {
                    shortHash = prefix;
                    break;
                }
            }
            PgContexts.exec(c, "insert into tool_result (store_id, context_id, short_hash, hash, tool_name, content, "
                    + "file_backed, file_path, file_mtime, file_size) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", store,
                    context, shortHash, full, tool == null ? "" : tool, content == null ? "" : content, file,
                    path == null ? "" : path, mtime, size);
            return shortHash;
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public Optional<CachedResult> get(String hash) {
        if (hash == null || hash.isEmpty()) {
            return Optional.empty();
        }
        try {
            Optional<CachedResult> exact = find("short_hash = ?", hash);
            if (exact.isPresent()) {
                return exact;
            }
            String like = hash.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
            try (PreparedStatement s = c.prepareStatement("select " + COLUMNS + " from tool_result where store_id = ? "
                    + "and context_id = ? and hash like ? limit 2")) {
                s.setString(1, store);
                s.setString(2, context);
                s.setString(3, like);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        return Optional.empty();
                    }
                    CachedResult first = row(r);
                    return r.next() ? Optional.empty() : Optional.of(first);
                }
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /** Not offered over this store: a persisted short hash stays valid for the context's life. */
    @Override
    public boolean evict(String hash) {
        throw new UnsupportedOperationException("The persisted tool-result cache does not evict");
    }

    @Override
    public int size() {
        try (PreparedStatement s = c.prepareStatement("select count(*) from tool_result where store_id = ? "
                + "and context_id = ?")) {
            s.setString(1, store);
            s.setString(2, context);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private static final String COLUMNS = "hash, short_hash, tool_name, content, file_backed, file_path, file_mtime, "
            + "file_size";

    private Optional<CachedResult> find(String where, String value) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select " + COLUMNS + " from tool_result where store_id = ? "
                + "and context_id = ? and " + where)) {
            s.setString(1, store);
            s.setString(2, context);
            s.setString(3, value);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row(r)) : Optional.empty();
            }
        }
    }

    private Optional<String> one(String sql, String value) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, store);
            s.setString(2, context);
            s.setString(3, value);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
            }
        }
    }

    private static CachedResult row(ResultSet r) throws SQLException {
        return new CachedResult(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getBoolean(5),
                r.getString(6), r.getLong(7), r.getLong(8));
    }
}
