package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** More connections than the database accepts, from more replicas or larger pools, fails the check. */
class ConnectionBudgetCheckTest {

    final ConnectionBudgetCheck check = new ConnectionBudgetCheck(32);

    @Test
    void moreReplicasThanTheDatabaseCanServeAreReported() {
        Broken.assertOneProblem(check::problems, "overlays/postgres", "maxReplicas: 5", "maxReplicas: 6",
                "may run 6 replicas of 32 pooled connections (+10 headroom = 202)");
    }

    @Test
    void aSmallerMaxConnectionsIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/dev", "max_connections: \"50\"",
                "max_connections: \"15\"", "accepts max_connections 15");
    }
}
