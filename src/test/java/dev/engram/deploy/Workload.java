package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.List;
import java.util.Map;

/** A pod template Engram runs in: a Deployment's, or a Knative Service's (whose pod spec Knative restricts). */
record Workload(String kind, String name, Map<String, String> podLabels, Map<String, String> podAnnotations,
        PodSpec pod) {

    Workload {
        podLabels = podLabels == null ? Map.of() : Map.copyOf(podLabels);
        podAnnotations = podAnnotations == null ? Map.of() : Map.copyOf(podAnnotations);
    }

    boolean knative() {
        return kind.equals("Knative Service");
    }

    /** The containers, init containers included. */
    List<Container> allContainers() {
        return java.util.stream.Stream.concat(pod.getInitContainers().stream(), pod.getContainers().stream())
                .toList();
    }

    /** How problems name it: "Deployment engram, container engram". */
    String where(Container c) {
        return kind + " " + name + ", container " + c.getName();
    }
}
