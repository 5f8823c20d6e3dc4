package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** A selector that finds nothing, or an autoscaler aimed at a name that is not rendered, fails the check. */
class SelectorCheckTest {

    final SelectorCheck check = new SelectorCheck();

    @Test
    void aDeploymentWhoseSelectorMissesItsOwnPodsIsReported() {
        Broken.assertOneProblem(check::problems, "base",
                "  selector:\n    matchLabels:\n      app.kubernetes.io/component: server\n"
                        + "      app.kubernetes.io/name: engram\n  strategy:",
                "  selector:\n    matchLabels:\n      app.kubernetes.io/component: api\n"
                        + "      app.kubernetes.io/name: engram\n  strategy:",
                "does not select its own pod template's labels");
    }

    @Test
    void aServiceSelectingOtherPodsIsReported() {
        Broken.assertOneProblem(check::problems, "base",
                "  selector:\n    app.kubernetes.io/component: server\n    app.kubernetes.io/name: engram",
                "  selector:\n    app.kubernetes.io/component: server\n    app.kubernetes.io/name: engrams",
                "Service engram selects");
    }

    @Test
    void aDisruptionBudgetSelectingNothingIsReported() {
        Broken.assertOneProblem(check::problems, "base", "  maxUnavailable: 1\n  selector:\n    matchLabels:\n"
                + "      app.kubernetes.io/component: server", "  maxUnavailable: 1\n  selector:\n    matchLabels:\n"
                + "      app.kubernetes.io/component: worker", "PodDisruptionBudget engram selects");
    }

    @Test
    void aServiceMonitorOnAPortTheServiceDoesNotNameIsReported() {
        Broken.assertOneProblem(check::problems, "base", "path: /q/metrics\n    port: http",
                "path: /q/metrics\n    port: metrics", "ServiceMonitor engram scrapes port metrics");
    }

    @Test
    void anAutoscalerAimedAtAnotherNameIsReported() {
        Broken.assertOneProblem(check::problems, "base", "    kind: Deployment\n    name: engram",
                "    kind: Deployment\n    name: engram-server", "scales Deployment engram-server");
    }
}
