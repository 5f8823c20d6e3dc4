package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.List;

/**
 * Every container runs Engram's image of this build: the JVM image in a Deployment, the native one in a Knative
 * Service, both tagged with pom.xml's version, so that no overlay drifts to another release.
 */
record ImageCheck(String version) {

    static final String JVM = "ghcr.io/engram-dev/engram";
    static final String NATIVE = "ghcr.io/engram-dev/engram-native";

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            String expected = (w.knative() ? NATIVE : JVM) + ":" + version;
            for (Container c : w.allContainers()) {
                if (!expected.equals(c.getImage())) {
                    problems.add(w.where(c) + " runs " + c.getImage() + ", not " + expected
                            + (w.knative() ? " (the native image, which starts fast enough to scale from zero)"
                                    : " (the JVM image)") + " of this build's version");
                }
            }
        }
        return problems;
    }
}
