package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every container, and every CloudNativePG cluster's instances, have CPU and memory requests and limits, a memory
 * request no larger than its limit: without a limit the JVM sizes its heap from the node's memory.
 */
final class ResourcesCheck {

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            for (Container c : w.allContainers()) {
                var r = c.getResources();
                check(w.where(c), r == null ? null : r.getRequests(), r == null ? null : r.getLimits(), problems);
            }
        }
        for (GenericKubernetesResource cluster : manifests.clusters()) {
            Map<String, Object> requests = cluster.get("spec", "resources", "requests");
            Map<String, Object> limits = cluster.get("spec", "resources", "limits");
            check("Cluster " + cluster.getMetadata().getName(), quantities(requests), quantities(limits), problems);
        }
        return problems;
    }

    private static void check(String where, Map<String, Quantity> requests, Map<String, Quantity> limits,
            List<String> problems) {
        for (String resource : List.of("cpu", "memory")) {
            if (requests == null || !requests.containsKey(resource)) {
                problems.add(where + " requests no " + resource);
            }
            if (limits == null || !limits.containsKey(resource)) {
                problems.add(where + " has no " + resource + " limit");
            }
        }
        if (requests != null && limits != null && requests.containsKey("memory") && limits.containsKey("memory")
                && requests.get("memory").getNumericalAmount().compareTo(limits.get("memory").getNumericalAmount())
                        > 0) {
            problems.add(where + " requests more memory (" + requests.get("memory") + ") than its limit ("
                    + limits.get("memory") + ")");
        }
    }

    private static Map<String, Quantity> quantities(Map<String, Object> values) {
        if (values == null) {
            return null;
        }
        Map<String, Quantity> q = new java.util.HashMap<>();
        values.forEach((k, v) -> q.put(k, new Quantity(String.valueOf(v))));
        return q;
    }
}
