package bench.baseline;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** One JSON route, so that the baseline's start-up includes REST and Jackson as Engram's does. */
@Path("/greeting")
public class Greeting {

    public record Text(String text) {
    }

    @GET
    public Text greet() {
        return new Text("hello");
    }
}
