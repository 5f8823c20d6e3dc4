package dev.engram.deploy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A grace period shorter than Engram's shutdown, or a roll that stops ready pods first, fails the check. */
class GracefulRolloutCheckTest {

    /** The shutdown delay (5 s) and timeout (20 s) Engram is configured with. */
    final GracefulRolloutCheck check = new GracefulRolloutCheck(Duration.ofSeconds(25));

    @Test
    void aGracePeriodShorterThanTheShutdownIsReported() {
        Broken.assertOneProblem(check::problems, "base", "terminationGracePeriodSeconds: 40",
                "terminationGracePeriodSeconds: 20", "gives a stopping pod 20 s");
    }

    @Test
    void withoutAGracePeriodKubernetesDefaultOf30SecondsCounts() {
        Broken.assertOneProblem(new GracefulRolloutCheck(Duration.ofSeconds(30))::problems, "base",
                "      terminationGracePeriodSeconds: 40\n", "", "gives a stopping pod 30 s");
    }

    @Test
    void aRollThatStopsAReadyPodFirstIsReported() {
        Broken.assertOneProblem(check::problems, "base", "maxUnavailable: 0", "maxUnavailable: 1",
                "roll with maxUnavailable: 0");
    }

    @Test
    void aKnativeTimeoutShorterThanTheShutdownIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "timeoutSeconds: 300", "timeoutSeconds: 10",
                "Knative Service engram gives a stopping pod 10 s");
    }
}
