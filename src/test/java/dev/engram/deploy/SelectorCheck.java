package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The selectors find what they are meant to: a Deployment its own pods, the Service, PodDisruptionBudget and
 * NetworkPolicy Engram's pods, the ServiceMonitor the Service (and a port of it), the autoscaler the Deployment by its
 * rendered name. A selector that matches nothing fails silently in a cluster: no endpoints, no budget, no policy.
 */
final class SelectorCheck {

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        List<Workload> workloads = manifests.workloads();
        for (Deployment d : manifests.of(Deployment.class)) {
            LabelSelector selector = d.getSpec().getSelector();
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            if (!matchLabelsOnly(selector) || !Manifests.selects(selector.getMatchLabels(), podLabels)) {
                problems.add("Deployment " + d.getMetadata().getName() + ": its selector " + text(selector)
                        + " does not select its own pod template's labels "
                        + d.getSpec().getTemplate().getMetadata().getLabels());
            }
        }
        for (Service s : manifests.of(Service.class)) {
            selectsAPod("Service " + s.getMetadata().getName(), s.getSpec().getSelector(), workloads, problems);
        }
        for (PodDisruptionBudget b : manifests.of(PodDisruptionBudget.class)) {
            LabelSelector selector = b.getSpec().getSelector();
            selectsAPod("PodDisruptionBudget " + b.getMetadata().getName(),
                    matchLabelsOnly(selector) ? selector.getMatchLabels() : null, workloads, problems);
        }
        for (NetworkPolicy p : manifests.of(NetworkPolicy.class)) {
            LabelSelector selector = p.getSpec().getPodSelector();
            selectsAPod("NetworkPolicy " + p.getMetadata().getName(),
                    matchLabelsOnly(selector) ? selector.getMatchLabels() : null, workloads, problems);
        }
        for (GenericKubernetesResource monitor : manifests.generic("monitoring.coreos.com", "ServiceMonitor")) {
            serviceMonitor(monitor, manifests.of(Service.class), problems);
        }
        for (HorizontalPodAutoscaler hpa : manifests.of(HorizontalPodAutoscaler.class)) {
            var target = hpa.getSpec().getScaleTargetRef();
            boolean found = target.getKind().equals("Deployment") && target.getApiVersion().equals("apps/v1")
                    && manifests.of(Deployment.class).stream()
                            .anyMatch(d -> d.getMetadata().getName().equals(target.getName()));
            if (!found) {
                problems.add("HorizontalPodAutoscaler " + hpa.getMetadata().getName() + " scales "
                        + target.getKind() + " " + target.getName() + ", which is no Deployment here");
            }
        }
        return problems;
    }

    private static void selectsAPod(String what, Map<String, String> selector, List<Workload> workloads,
            List<String> problems) {
        if (workloads.stream().noneMatch(w -> Manifests.selects(selector, w.podLabels()))) {
            problems.add(what + " selects " + selector + ", which no Engram pod carries (the pods carry "
                    + workloads.stream().map(Workload::podLabels).toList() + ")");
        }
    }

    private static void serviceMonitor(GenericKubernetesResource monitor, List<Service> services,
            List<String> problems) {
        String name = "ServiceMonitor " + monitor.getMetadata().getName();
        Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");
        List<Service> selected = services.stream()
                .filter(s -> Manifests.selects(selector, s.getMetadata().getLabels())).toList();
        if (selected.isEmpty()) {
            problems.add(name + " selects Services labelled " + selector + ", and no Service here is");
            return;
        }
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        for (Map<String, Object> endpoint : endpoints == null ? List.<Map<String, Object>>of() : endpoints) {
            Object port = endpoint.get("port");
            boolean named = selected.stream().flatMap(s -> s.getSpec().getPorts().stream())
                    .anyMatch(p -> p.getName() != null && p.getName().equals(port));
            if (!named) {
                problems.add(name + " scrapes port " + port + ", which the Service does not name");
            }
        }
    }

    private static boolean matchLabelsOnly(LabelSelector selector) {
        return selector != null && selector.getMatchExpressions().isEmpty() && selector.getMatchLabels() != null
                && !selector.getMatchLabels().isEmpty();
    }

    private static String text(LabelSelector selector) {
        return selector == null ? "(none)" : String.valueOf(selector.getMatchLabels())
                + (selector.getMatchExpressions().isEmpty() ? "" : " with expressions");
    }
}
