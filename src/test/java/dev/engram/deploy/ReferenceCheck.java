package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every ConfigMap and Secret a pod or the ServiceMonitor names exists, with the key asked for: a rendered one (whose
 * name Kustomize may have suffixed with a hash, and must then have rewritten everywhere), or one made outside the
 * rendering: the Secret the docs ask the user to create, or the one CloudNativePG makes for each cluster.
 */
final class ReferenceCheck {

    /** The keys of the Secret CloudNativePG makes for a cluster's application user ({@code <cluster>-app}). */
    static final Set<String> CNPG_APP_KEYS = Set.of("username", "password", "host", "port", "dbname", "uri",
            "jdbc-uri", "pgpass", "fqdn-uri", "fqdn-jdbc-uri");

    private final Set<String> userSecrets;

    /** {@code userSecrets}: the Secrets docs/deploy.md asks the user to create. */
    ReferenceCheck(Set<String> userSecrets) {
        this.userSecrets = Set.copyOf(userSecrets);
    }

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        Set<String> cnpgSecrets = new HashSet<>();
        for (GenericKubernetesResource cluster : manifests.clusters()) {
            cnpgSecrets.add(cluster.getMetadata().getName() + "-app");
        }
        for (Workload w : manifests.workloads()) {
            for (Container c : w.allContainers()) {
                for (EnvVar e : c.getEnv()) {
                    if (e.getValueFrom() == null) {
                        continue;
                    }
                    var mapKey = e.getValueFrom().getConfigMapKeyRef();
                    if (mapKey != null) {
                        configMap(manifests, w.where(c) + " " + e.getName(), mapKey.getName(), mapKey.getKey(),
                                Boolean.TRUE.equals(mapKey.getOptional()), problems);
                    }
                    var secretKey = e.getValueFrom().getSecretKeyRef();
                    if (secretKey != null) {
                        secret(manifests, cnpgSecrets, w.where(c) + " " + e.getName(), secretKey.getName(),
                                secretKey.getKey(), Boolean.TRUE.equals(secretKey.getOptional()), problems);
                    }
                }
                for (EnvFromSource from : c.getEnvFrom()) {
                    if (from.getConfigMapRef() != null) {
                        configMap(manifests, w.where(c), from.getConfigMapRef().getName(), null,
                                Boolean.TRUE.equals(from.getConfigMapRef().getOptional()), problems);
                    }
                }
            }
        }
        for (GenericKubernetesResource monitor : manifests.generic("monitoring.coreos.com", "ServiceMonitor")) {
            List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
            for (Map<String, Object> endpoint : endpoints == null ? List.<Map<String, Object>>of() : endpoints) {
                if (endpoint.get("authorization") instanceof Map<?, ?> authorization
                        && authorization.get("credentials") instanceof Map<?, ?> credentials) {
                    secret(manifests, cnpgSecrets, "ServiceMonitor " + monitor.getMetadata().getName(),
                            String.valueOf(credentials.get("name")), String.valueOf(credentials.get("key")), false,
                            problems);
                }
            }
        }
        return problems;
    }

    private static void configMap(Manifests manifests, String where, String name, String key, boolean optional,
            List<String> problems) {
        Optional<ConfigMap> map = manifests.configMap(name);
        if (map.isEmpty()) {
            if (!optional) {
                problems.add(where + " reads ConfigMap " + name + ", which is not rendered (a generated name with a "
                        + "hash that was not rewritten here?)");
            }
        } else if (key != null && !optional && !map.get().getData().containsKey(key)) {
            problems.add(where + " reads key " + key + " of ConfigMap " + name + ", which has no such key");
        }
    }

    private void secret(Manifests manifests, Set<String> cnpgSecrets, String where, String name, String key,
            boolean optional, List<String> problems) {
        Optional<Secret> rendered = manifests.of(Secret.class).stream()
                .filter(s -> s.getMetadata().getName().equals(name)).findFirst();
        if (rendered.isPresent()) {
            Secret s = rendered.get();
            if (!optional && !s.getData().containsKey(key) && !s.getStringData().containsKey(key)) {
                problems.add(where + " reads key " + key + " of Secret " + name + ", which has no such key");
            }
        } else if (cnpgSecrets.contains(name)) {
            if (!CNPG_APP_KEYS.contains(key)) {
                problems.add(where + " reads key " + key + " of CloudNativePG's Secret " + name + ", which has "
                        + "only " + new java.util.TreeSet<>(CNPG_APP_KEYS));
            }
        } else if (!userSecrets.contains(name)) {
            problems.add(where + " reads Secret " + name + ", which is neither rendered, nor made by CloudNativePG, "
                    + "nor one docs/deploy.md asks you to create (" + userSecrets + ")");
        }
    }
}
