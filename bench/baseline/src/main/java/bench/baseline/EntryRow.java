package bench.baseline;

import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The framework's floor for a read (bench/run's http_floor workload): one entry's row by its key, read with one
 * prepared statement from the pool and answered as JSON, on a worker thread as Engram's blocking resources are. What
 * Engram's GET of an entry costs beyond this is Engram's own.
 */
@Path("/entry/{store}/{scope}/{name}")
public class EntryRow {

    static final String SQL = "select scope, name, content, meta::text, hash, updated from entry "
            + "where store_id = ? and scope = ? and name = ?";

    public record Row(String scope, String name, String content, String meta, String hash, String updated) {
    }

    @Inject
    AgroalDataSource db;

    @GET
    public Row read(@PathParam("store") String store, @PathParam("scope") String scope,
            @PathParam("name") String name) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(SQL)) {
            s.setString(1, store);
            s.setString(2, scope);
            s.setString(3, name);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new NotFoundException();
                }
                return new Row(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                        r.getObject(6).toString());
            }
        }
    }
}
