package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A rendered CloudNativePG cluster accepts every connection Engram may open: the most replicas (the autoscaler's
 * maximum, a fixed count, or Knative's max-scale) times each replica's pool, plus {@link #HEADROOM} for the operator,
 * replication and a person with psql, within max_connections. Past it, new replicas fail to connect at the worst time.
 *
 * @param defaultPool the pool size a replica has when no manifest sets QUARKUS_DATASOURCE_JDBC_MAX_SIZE
 */
record ConnectionBudgetCheck(int defaultPool) {

    /** Connections kept for everything but Engram: superuser slots, replication, the operator's checks, psql. */
    static final int HEADROOM = 10;

    /** PostgreSQL's own default, when the cluster sets no max_connections. */
    static final int POSTGRES_DEFAULT = 100;

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (GenericKubernetesResource cluster : manifests.clusters()) {
            Object max = cluster.get("spec", "postgresql", "parameters", "max_connections");
            int allowed = max == null ? POSTGRES_DEFAULT : Integer.parseInt(String.valueOf(max));
            for (Workload w : manifests.workloads()) {
                int replicas = maxReplicas(manifests, w);
                if (replicas < 0) {
                    problems.add(w.kind() + " " + w.name() + " scales without bound (set "
                            + "autoscaling.knative.dev/max-scale), and Cluster " + cluster.getMetadata().getName()
                            + " accepts max_connections " + allowed);
                    continue;
                }
                int pool = pool(manifests, w);
                int wanted = replicas * pool + HEADROOM;
                if (wanted > allowed) {
                    problems.add(w.kind() + " " + w.name() + " may run " + replicas + " replicas of " + pool
                            + " pooled connections (+" + HEADROOM + " headroom = " + wanted + "), and Cluster "
                            + cluster.getMetadata().getName() + " accepts max_connections " + allowed);
                }
            }
        }
        return problems;
    }

    /** The most replicas {@code w} may run; -1 for no bound. */
    private static int maxReplicas(Manifests manifests, Workload w) {
        if (w.knative()) {
            String scale = w.podAnnotations().get("autoscaling.knative.dev/max-scale");
            return scale == null || scale.equals("0") ? -1 : Integer.parseInt(scale);
        }
        for (HorizontalPodAutoscaler hpa : manifests.of(HorizontalPodAutoscaler.class)) {
            if (hpa.getSpec().getScaleTargetRef().getName().equals(w.name())) {
                return hpa.getSpec().getMaxReplicas();
            }
        }
        return manifests.of(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals(w.name()))
                .map(d -> d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas()).findFirst().orElse(1);
    }

    /** The pool size: set in the container's env, or in a ConfigMap it takes whole, or the default. */
    private int pool(Manifests manifests, Workload w) {
        String key = "QUARKUS_DATASOURCE_JDBC_MAX_SIZE";
        for (var c : w.pod().getContainers()) {
            for (var e : c.getEnv()) {
                if (e.getName().equals(key) && e.getValue() != null) {
                    return Integer.parseInt(e.getValue());
                }
            }
            for (var from : c.getEnvFrom()) {
                if (from.getConfigMapRef() != null) {
                    String value = manifests.configMap(from.getConfigMapRef().getName()).map(ConfigMap::getData)
                            .orElse(Map.of()).get(key);
                    if (value != null) {
                        return Integer.parseInt(value);
                    }
                }
            }
        }
        return defaultPool;
    }
}
