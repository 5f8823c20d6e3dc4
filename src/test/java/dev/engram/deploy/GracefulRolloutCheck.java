package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A stopping pod gets longer than Engram takes to stop (its shutdown delay plus timeout), else it is killed with
 * requests in flight; and a Deployment rolls without ever having fewer ready pods than it asks for.
 *
 * @param shutdown how long Engram takes to stop (application.properties' delay plus timeout)
 */
record GracefulRolloutCheck(Duration shutdown) {

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Deployment d : manifests.of(Deployment.class)) {
            String where = "Deployment " + d.getMetadata().getName();
            Long grace = d.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
            long seconds = grace == null ? 30 : grace;
            if (seconds <= shutdown.toSeconds()) {
                problems.add(where + " gives a stopping pod " + seconds + " s, and Engram takes up to "
                        + shutdown.toSeconds() + " s to stop (shutdown delay plus timeout): raise "
                        + "terminationGracePeriodSeconds");
            }
            var strategy = d.getSpec().getStrategy();
            boolean rolling = strategy != null && "RollingUpdate".equals(strategy.getType())
                    && strategy.getRollingUpdate() != null
                    && strategy.getRollingUpdate().getMaxUnavailable() != null
                    && Integer.valueOf(0).equals(strategy.getRollingUpdate().getMaxUnavailable().getIntVal());
            if (!rolling) {
                problems.add(where + " may stop a ready pod before its replacement is ready: roll with "
                        + "maxUnavailable: 0");
            }
        }
        for (GenericKubernetesResource k : manifests.generic("serving.knative.dev", "Service")) {
            Number timeout = k.get("spec", "template", "spec", "timeoutSeconds");
            long seconds = timeout == null ? 300 : timeout.longValue();
            if (seconds <= shutdown.toSeconds()) {
                problems.add("Knative Service " + k.getMetadata().getName() + " gives a stopping pod " + seconds
                        + " s (its timeoutSeconds), and Engram takes up to " + shutdown.toSeconds() + " s to stop");
            }
        }
        return problems;
    }
}
