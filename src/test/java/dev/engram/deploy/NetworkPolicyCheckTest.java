package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** A policy that would refuse the probes, DNS or PostgreSQL fails the check. */
class NetworkPolicyCheckTest {

    final NetworkPolicyCheck check = new NetworkPolicyCheck(8080);

    @Test
    void ingressOnAnotherPortIsReported() {
        Broken.assertOneProblem(check::problems, "base", "  ingress:\n  - ports:\n    - port: http",
                "  ingress:\n  - ports:\n    - port: 9000", "no ingress rule admits port 8080 from anywhere");
    }

    @Test
    void ingressFromOneNamespaceOnlyIsReported() {
        Broken.assertOneProblem(check::problems, "base", "  ingress:\n  - ports:",
                "  ingress:\n  - from:\n    - namespaceSelector:\n        matchLabels:\n          team: agents\n"
                        + "    ports:", "the kubelet's probes may be refused");
    }

    @Test
    void dnsOverUdpOnlyIsReported() {
        Broken.assertOneProblem(check::problems, "base", "    - port: 53\n      protocol: TCP\n", "",
                "no egress rule admits DNS (TCP 53)");
    }

    @Test
    void postgresToOtherPodsThanTheClustersIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/postgres", "cnpg.io/cluster: engram-db",
                "cnpg.io/cluster: other-db", "on the pods of CloudNativePG cluster engram-db");
    }

    @Test
    void noPolicyForThePodsIsReported() {
        Broken.assertOneProblem(check::problems, "base", "  podSelector:\n    matchLabels:\n"
                + "      app.kubernetes.io/component: server", "  podSelector:\n    matchLabels:\n"
                + "      app.kubernetes.io/component: database", "no NetworkPolicy selects its pods");
    }
}
