package dev.engram;

import java.util.Map;

/**
 * An application of its own for the tests that begin its shutdown in process (they leave it refusing new streams, or
 * with its journal notifications stopped), shared so that Quarkus starts it once for them all. Notifications to other
 * replicas go out at most every 5 s, so that a test can tell one sent at shutdown from one sent by the interval.
 */
public class PartlyShutDown extends ConfigProfile {

    public PartlyShutDown() {
        super(Map.of("engram.journal.notify-interval", "5s"));
    }
}
