package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects of one rendering, parsed with fabric8's Kubernetes model. Kinds the model does not know (CloudNativePG's
 * Cluster, Prometheus Operator's ServiceMonitor, the Knative Service) are {@link GenericKubernetesResource}s.
 */
final class Manifests {

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final List<HasMetadata> objects;

    private Manifests(List<HasMetadata> objects) {
        this.objects = List.copyOf(objects);
    }

    /** The objects of a multi-document YAML text, as {@code kubectl kustomize} prints it. */
    static Manifests parse(String yaml) {
        Object parsed = SERIALIZATION.unmarshal(yaml);
        List<HasMetadata> objects = new ArrayList<>();
        for (Object o : parsed instanceof List<?> list ? list : List.of(parsed)) {
            if (o instanceof HasMetadata object) {
                objects.add(object);
            } else if (o != null) {
                throw new AssertionError("Not a Kubernetes object: " + o);
            }
        }
        return new Manifests(objects);
    }

    /** The rendering of {@code dir} under deployment/, parsed. */
    static Manifests of(String dir) {
        return parse(Kustomize.render(dir));
    }

    List<HasMetadata> all() {
        return objects;
    }

    /** The objects of one model class (Deployment, Service, ...); a core v1 Service is never a Knative one. */
    <T extends HasMetadata> List<T> of(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The objects of a kind the model does not know, by API group and kind. */
    List<GenericKubernetesResource> generic(String group, String kind) {
        return of(GenericKubernetesResource.class).stream()
                .filter(r -> r.getKind().equals(kind) && r.getApiVersion().startsWith(group + "/")).toList();
    }

    Optional<ConfigMap> configMap(String name) {
        return of(ConfigMap.class).stream().filter(c -> c.getMetadata().getName().equals(name)).findFirst();
    }

    /** The CloudNativePG clusters. */
    List<GenericKubernetesResource> clusters() {
        return generic("postgresql.cnpg.io", "Cluster");
    }

    /** The pod templates Engram runs in: every Deployment's and every Knative Service's. */
    List<Workload> workloads() {
        List<Workload> workloads = new ArrayList<>();
        for (Deployment d : of(Deployment.class)) {
            var template = d.getSpec().getTemplate();
            workloads.add(new Workload("Deployment", d.getMetadata().getName(), template.getMetadata().getLabels(),
                    template.getMetadata().getAnnotations(), template.getSpec()));
        }
        for (GenericKubernetesResource k : generic("serving.knative.dev", "Service")) {
            Map<String, String> labels = k.get("spec", "template", "metadata", "labels");
            Map<String, String> annotations = k.get("spec", "template", "metadata", "annotations");
            Object spec = k.get("spec", "template", "spec");
            workloads.add(new Workload("Knative Service", k.getMetadata().getName(), labels, annotations,
                    SERIALIZATION.convertValue(spec, PodSpec.class)));
        }
        return workloads;
    }

    /** Whether every label {@code selector} asks for is on {@code labels}; an empty or absent one selects nothing here. */
    static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return selector != null && !selector.isEmpty() && labels != null
                && labels.entrySet().containsAll(selector.entrySet());
    }
}
