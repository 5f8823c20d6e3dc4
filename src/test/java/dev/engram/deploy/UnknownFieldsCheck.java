package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * No field of a Kubernetes object (a Knative Service's pod spec included) is one the API does not have: the model
 * keeps such a field aside instead of failing, so a misspelt {@code readinesProbe} would otherwise pass every other
 * check by being absent where it is looked for, and be dropped or refused by the cluster.
 */
final class UnknownFieldsCheck {

    private static final String MODEL = "io.fabric8.kubernetes.api.model";

    /** What a Knative revision's spec has beside a pod spec's fields. */
    static final Set<String> KNATIVE_REVISION_FIELDS = Set.of("containerConcurrency", "timeoutSeconds",
            "responseStartTimeoutSeconds", "idleTimeoutSeconds");

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (HasMetadata o : manifests.all()) {
            if (!(o instanceof GenericKubernetesResource)) {
                walk(o, o.getKind() + " " + o.getMetadata().getName(), problems);
            }
        }
        for (Workload w : manifests.workloads()) {
            if (w.knative()) {
                PodSpec pod = Manifests.SERIALIZATION.clone(w.pod());
                pod.getAdditionalProperties().keySet().removeAll(KNATIVE_REVISION_FIELDS);
                walk(pod, w.kind() + " " + w.name() + " spec.template.spec", problems);
            }
        }
        return problems;
    }

    private static void walk(Object value, String path, List<String> problems) {
        if (value == null || value instanceof GenericKubernetesResource) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, path + "[" + i++ + "]", problems);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "." + k, problems));
            return;
        }
        if (!value.getClass().getName().startsWith(MODEL)) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object field;
            try {
                field = getter.invoke(value);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (field instanceof Map<?, ?> unknown && !unknown.isEmpty()) {
                    problems.add(path + " has fields the Kubernetes API does not: " + unknown.keySet());
                }
            } else if (field != null && !(field instanceof String) && !(field instanceof Number)
                    && !(field instanceof Boolean)) {
                walk(field, path + "." + decapitalize(getter.getName().substring(3)), problems);
            }
        }
    }

    private static String decapitalize(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
