package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** A probe on a path or port Engram does not serve, a missing probe, or a Service aimed elsewhere fails the check. */
class ProbeCheckTest {

    final ProbeCheck check = new ProbeCheck(8080);

    @Test
    void aReadinessProbeOnAnotherPathIsReported() {
        Broken.assertOneProblem(check::problems, "base", "path: /q/health/ready", "path: /health/ready",
                "the readiness probe asks /health/ready, not /q/health/ready");
    }

    @Test
    void aProbeOnAPortNameTheContainerDoesNotHaveIsReported() {
        Broken.assertOneProblem(check::problems, "base", "path: /q/health/live\n            port: http",
                "path: /q/health/live\n            port: web", "the liveness probe asks port web");
    }

    @Test
    void aMissingStartupProbeIsReported() {
        Broken.assertOneProblem(check::problems, "base", "startupProbe:", "startupProbeDisabled:",
                "has no startup probe (/q/health/started)");
    }

    @Test
    void aContainerPortOtherThanEngramsIsReported() {
        // The probes and the Service follow the renamed port's number; each of the three then misses 8080.
        var problems = check.problems(Broken.render("base", "containerPort: 8080", "containerPort: 9090"));
        org.junit.jupiter.api.Assertions.assertTrue(problems.get(0).contains("declares no container port 8080"),
                problems.toString());
    }

    @Test
    void aServiceTargetingAnotherPortIsReported() {
        Broken.assertOneProblem(check::problems, "base", "targetPort: http", "targetPort: 9090",
                "Service engram port http targets 9090");
    }

    @Test
    void aKnativeProbeOnAnotherPortIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "path: /q/health/started\n            port: 8080",
                "path: /q/health/started\n            port: 8081", "the startup probe asks port 8081");
    }
}
