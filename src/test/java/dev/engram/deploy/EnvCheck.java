package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every environment variable a workload sets, by name or from a ConfigMap ({@code envFrom}), is a setting Engram (or
 * its image) reads: a misspelt one would be ignored without a word, and Engram would run on its default.
 */
final class EnvCheck {

    private final Set<String> known;

    EnvCheck(Set<String> known) {
        this.known = Set.copyOf(known);
    }

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            for (Container c : w.allContainers()) {
                for (EnvVar e : c.getEnv()) {
                    check(w.where(c), e.getName(), problems);
                }
                for (EnvFromSource from : c.getEnvFrom()) {
                    if (from.getSecretRef() != null) {
                        problems.add(w.where(c) + " takes every key of Secret " + from.getSecretRef().getName()
                                + " as variables (envFrom), which cannot be checked: name each variable in env");
                    }
                    if (from.getConfigMapRef() != null) {
                        String prefix = Optional.ofNullable(from.getPrefix()).orElse("");
                        Optional<ConfigMap> map = manifests.configMap(from.getConfigMapRef().getName());
                        for (String key : map.map(ConfigMap::getData).orElse(Map.of()).keySet()) {
                            check(w.where(c) + " (from ConfigMap " + from.getConfigMapRef().getName() + ")",
                                    prefix + key, problems);
                        }
                    }
                }
            }
        }
        return problems;
    }

    private void check(String where, String name, List<String> problems) {
        if (!known.contains(name)) {
            problems.add(where + " sets " + name + ", which is no setting Engram reads: a misspelt or unknown key "
                    + "is ignored (the settings are in docs/deploy.md)");
        }
    }
}
