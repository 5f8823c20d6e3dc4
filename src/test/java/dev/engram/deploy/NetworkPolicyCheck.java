package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The NetworkPolicy of Engram's pods (a Deployment's; Knative's data path is the platform's) admits, on Engram's HTTP
 * port, callers from anywhere: the kubelet's probes among them, which some network plugins see as coming from the
 * node. Out, it admits DNS (UDP and TCP) and PostgreSQL on 5432: to the CloudNativePG cluster's pods when one is
 * rendered, anywhere otherwise.
 *
 * @param port the port Engram listens on, which its container names {@code http}
 */
record NetworkPolicyCheck(int port) {

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            if (w.knative()) {
                continue;
            }
            String where = w.kind() + " " + w.name();
            List<NetworkPolicy> policies = manifests.of(NetworkPolicy.class).stream()
                    .filter(p -> Manifests.selects(p.getSpec().getPodSelector().getMatchLabels(), w.podLabels()))
                    .toList();
            if (policies.isEmpty()) {
                problems.add(where + ": no NetworkPolicy selects its pods");
                continue;
            }
            if (isolates(policies, "Ingress") && policies.stream().flatMap(p -> p.getSpec().getIngress().stream())
                    .noneMatch(r -> r.getFrom().isEmpty() && admits(r.getPorts(), w, "TCP", port))) {
                problems.add(where + ": no ingress rule admits port " + port + " from anywhere, so the kubelet's "
                        + "probes may be refused");
            }
            if (isolates(policies, "Egress")) {
                var egress = policies.stream().flatMap(p -> p.getSpec().getEgress().stream()).toList();
                for (String protocol : List.of("UDP", "TCP")) {
                    if (egress.stream().noneMatch(r -> admits(r.getPorts(), w, protocol, 53))) {
                        problems.add(where + ": no egress rule admits DNS (" + protocol + " 53)");
                    }
                }
                List<GenericKubernetesResource> clusters = manifests.clusters();
                if (clusters.isEmpty() && egress.stream()
                        .noneMatch(r -> admits(r.getPorts(), w, "TCP", 5432))) {
                    problems.add(where + ": no egress rule admits PostgreSQL (TCP 5432)");
                }
                for (GenericKubernetesResource cluster : clusters) {
                    Map<String, String> pods = Map.of("cnpg.io/cluster", cluster.getMetadata().getName(),
                            "cnpg.io/podRole", "instance");
                    if (egress.stream().noneMatch(r -> admits(r.getPorts(), w, "TCP", 5432)
                            && (r.getTo().isEmpty() || r.getTo().stream().anyMatch(peer -> inNamespace(peer, pods))))) {
                        problems.add(where + ": no egress rule admits PostgreSQL (TCP 5432) on the pods of "
                                + "CloudNativePG cluster " + cluster.getMetadata().getName() + " (labelled "
                                + "cnpg.io/cluster: " + cluster.getMetadata().getName() + ")");
                    }
                }
            }
        }
        return problems;
    }

    /** Whether the policies cut {@code type} traffic off but for their rules. */
    private static boolean isolates(List<NetworkPolicy> policies, String type) {
        return policies.stream().anyMatch(p -> p.getSpec().getPolicyTypes().contains(type)
                || type.equals("Ingress") && p.getSpec().getPolicyTypes().isEmpty());
    }

    /** Whether a rule's ports (none: all) admit {@code number}, named or numbered, over {@code protocol}. */
    private static boolean admits(List<NetworkPolicyPort> ports, Workload w, String protocol, int number) {
        if (ports.isEmpty()) {
            return true;
        }
        for (NetworkPolicyPort p : ports) {
            String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
            if (!proto.equals(protocol)) {
                continue;
            }
            IntOrString value = p.getPort();
            if (value == null) {
                return true;
            }
            if (value.getIntVal() != null) {
                int end = p.getEndPort() == null ? value.getIntVal() : p.getEndPort();
                if (value.getIntVal() <= number && number <= end) {
                    return true;
                }
            } else if (w.pod().getContainers().stream().flatMap(c -> c.getPorts().stream())
                    .anyMatch(cp -> value.getStrVal().equals(cp.getName()) && cp.getContainerPort() == number)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code peer} is pods of this namespace that include ones labelled {@code labels}. */
    private static boolean inNamespace(NetworkPolicyPeer peer, Map<String, String> labels) {
        return peer.getNamespaceSelector() == null && peer.getIpBlock() == null && peer.getPodSelector() != null
                && Manifests.selects(peer.getPodSelector().getMatchLabels(), labels);
    }
}
