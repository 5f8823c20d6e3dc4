package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Renders every kustomization under deployment/ as {@code kubectl apply -k} would (the base, each overlay, and the
 * postgres overlay with the backup component), parses every object, and checks what breaks deployments in practice
 * ({@link DeploymentChecks}); then what each overlay is for.
 */
class DeploymentManifestsTest {

    static Stream<Arguments> renderings() {
        Stream<Arguments> overlays = Kustomize.OVERLAYS.stream()
                .map(dir -> Arguments.of(dir, (Supplier<String>) () -> Kustomize.render(dir)));
        return Stream.concat(overlays, Stream.of(Arguments.of("overlays/postgres with overlays/postgres/backup",
                (Supplier<String>) Kustomize::renderPostgresWithBackup)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void everyRenderingPassesEveryCheck(String name, Supplier<String> yaml) {
        Manifests manifests = Manifests.parse(yaml.get());
        assertFalse(manifests.workloads().isEmpty(), name + " renders no workload");
        assertEquals(List.of(), DeploymentChecks.problems(manifests), name);
    }

    @Test
    void theBaseLeavesTheReplicaCountToItsAutoscaler() {
        Manifests base = Manifests.of("base");
        Deployment d = base.of(Deployment.class).get(0);
        assertNull(d.getSpec().getReplicas(), "a fixed count would reset the autoscaler's at every apply");
        HorizontalPodAutoscaler hpa = base.of(HorizontalPodAutoscaler.class).get(0);
        assertTrue(hpa.getSpec().getMinReplicas() >= 2, "one replica may be rolling or drained");
        assertEquals(1, base.of(PodDisruptionBudget.class).get(0).getSpec().getMaxUnavailable().getIntVal());
    }

    @Test
    void thePostgresOverlayWiresTheDatasourceToItsCloudNativePgCluster() {
        Manifests pg = Manifests.of("overlays/postgres");
        GenericKubernetesResource cluster = pg.clusters().get(0);
        String name = cluster.getMetadata().getName();
        assertEquals(3, ((Number) cluster.get("spec", "instances")).intValue());
        ConfigMap config = pg.of(ConfigMap.class).get(0);
        assertTrue(config.getData().get("QUARKUS_DATASOURCE_JDBC_URL").startsWith("jdbc:postgresql://" + name
                + "-rw:5432/"), "the URL names the operator's read-write service");
        Map<String, EnvVar> env = env(pg.of(Deployment.class).get(0));
        for (String variable : List.of("QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD")) {
            assertEquals(name + "-app", env.get(variable).getValueFrom().getSecretKeyRef().getName(), variable);
        }
        NetworkPolicy policy = pg.of(NetworkPolicy.class).get(0);
        assertTrue(policy.getSpec().getEgress().stream()
                .filter(r -> r.getPorts().stream().anyMatch(p -> p.getPort().getIntVal() == 5432))
                .allMatch(r -> !r.getTo().isEmpty()), "PostgreSQL only on the cluster's pods");
    }

    @Test
    void theKnativeOverlayIsOneServiceThatScalesToZero() {
        Manifests knative = Manifests.of("overlays/knative");
        List<Workload> workloads = knative.workloads();
        assertEquals(1, workloads.size());
        assertTrue(workloads.get(0).knative());
        assertEquals("0", workloads.get(0).podAnnotations().get("autoscaling.knative.dev/min-scale"));
        assertEquals(List.of(), knative.of(Deployment.class));
        assertEquals(List.of(), knative.of(Service.class), "Knative makes the Kubernetes Services itself");
        assertEquals(List.of(), knative.of(HorizontalPodAutoscaler.class));
        assertEquals(List.of(), knative.of(PodDisruptionBudget.class));
    }

    @Test
    void theDevOverlayRunsOneReplicaOnOneInstanceWithItsOpsEndpointsOpen() {
        Manifests dev = Manifests.of("overlays/dev");
        assertEquals(1, dev.of(Deployment.class).get(0).getSpec().getReplicas());
        assertEquals(List.of(), dev.of(HorizontalPodAutoscaler.class));
        assertEquals(List.of(), dev.of(PodDisruptionBudget.class));
        assertEquals(1, ((Number) dev.clusters().get(0).get("spec", "instances")).intValue());
        assertEquals("true", dev.of(ConfigMap.class).get(0).getData().get("ENGRAM_AUTH_OPEN_OPS_ENDPOINTS"));
    }

    @Test
    void theDeploymentGuideNamesEveryVariableTheManifestsSetAndEveryQuarkusKeyAllowed() throws Exception {
        String guide = Files.readString(Path.of("docs/deploy.md"));
        Set<String> set = new TreeSet<>();
        for (String dir : Kustomize.OVERLAYS) {
            Manifests m = Manifests.of(dir);
            for (Workload w : m.workloads()) {
                for (var c : w.allContainers()) {
                    c.getEnv().forEach(e -> set.add(e.getName()));
                    c.getEnvFrom().stream().filter(f -> f.getConfigMapRef() != null)
                            .flatMap(f -> m.configMap(f.getConfigMapRef().getName()).stream())
                            .forEach(map -> set.addAll(map.getData().keySet()));
                }
            }
        }
        set.addAll(KnownSettings.QUARKUS);
        List<String> missing = set.stream().filter(v -> !guide.contains("`" + v + "`")).toList();
        assertEquals(List.of(), missing, "variables docs/deploy.md does not name");
    }

    private static Map<String, EnvVar> env(Deployment d) {
        return d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .collect(java.util.stream.Collectors.toMap(EnvVar::getName, e -> e));
    }
}
