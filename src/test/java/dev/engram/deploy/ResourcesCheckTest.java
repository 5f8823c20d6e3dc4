package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** A container or database without requests or limits, or asking more than its limit, fails the check. */
class ResourcesCheckTest {

    final ResourcesCheck check = new ResourcesCheck();

    @Test
    void aContainerWithoutAMemoryLimitIsReported() {
        Broken.assertOneProblem(check::problems, "base", "limits:\n            cpu: \"2\"\n            memory: 768Mi",
                "limits:\n            cpu: \"2\"", "Deployment engram, container engram has no memory limit");
    }

    @Test
    void aRequestAboveItsLimitIsReported() {
        Broken.assertOneProblem(check::problems, "base", "requests:\n            cpu: 500m\n            memory: 768Mi",
                "requests:\n            cpu: 500m\n            memory: 1Gi", "requests more memory (1Gi)");
    }

    @Test
    void aDatabaseWithoutCpuRequestIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/postgres", "requests:\n      cpu: 500m\n      memory: 1Gi",
                "requests:\n      memory: 1Gi", "Cluster engram-db requests no cpu");
    }
}
