package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every Engram container is probed on the health endpoints Engram serves, on the port it listens on, and every
 * Service in front of it sends traffic to that port: a probe on a wrong path or port restarts healthy pods forever.
 *
 * @param port the port Engram listens on (application.properties' quarkus.http.port)
 */
record ProbeCheck(int port) {

    /** The probes and the path each must ask: SmallRye Health's started, live and ready endpoints. */
    static final Map<String, String> PATHS = paths();

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            for (Container c : w.pod().getContainers()) {
                if (c.getPorts().stream().noneMatch(p -> p.getContainerPort() == port)) {
                    problems.add(w.where(c) + " declares no container port " + port + ", the one Engram listens on");
                }
                for (var probe : probes(c).entrySet()) {
                    check(w, c, probe.getKey(), probe.getValue(), problems);
                }
            }
            for (Service s : manifests.of(Service.class)) {
                if (Manifests.selects(s.getSpec().getSelector(), w.podLabels())) {
                    for (ServicePort sp : s.getSpec().getPorts()) {
                        IntOrString target = Optional.ofNullable(sp.getTargetPort())
                                .orElse(new IntOrString(sp.getPort()));
                        if (w.pod().getContainers().stream().noneMatch(c -> reaches(c, target))) {
                            problems.add("Service " + s.getMetadata().getName() + " port " + sp.getName()
                                    + " targets " + text(target) + ", which is not Engram's port " + port + " in "
                                    + w.kind() + " " + w.name());
                        }
                    }
                }
            }
        }
        return problems;
    }

    private void check(Workload w, Container c, String kind, Probe probe, List<String> problems) {
        String where = w.where(c) + ": the " + kind + " probe";
        if (probe == null) {
            problems.add(w.where(c) + " has no " + kind + " probe (" + PATHS.get(kind) + ")");
            return;
        }
        if (probe.getHttpGet() == null) {
            problems.add(where + " is no HTTP GET of " + PATHS.get(kind));
            return;
        }
        var get = probe.getHttpGet();
        if (!PATHS.get(kind).equals(get.getPath())) {
            problems.add(where + " asks " + get.getPath() + ", not " + PATHS.get(kind));
        }
        if (get.getScheme() != null && !get.getScheme().equals("HTTP")) {
            problems.add(where + " uses " + get.getScheme() + "; Engram serves plain HTTP");
        }
        if (get.getPort() == null) {
            if (!w.knative()) {
                problems.add(where + " names no port");
            }
        } else if (!reaches(c, get.getPort())) {
            problems.add(where + " asks port " + text(get.getPort()) + ", not the container's port " + port);
        }
    }

    /** Whether {@code target} (a number, or a port's name) is Engram's port in container {@code c}. */
    private boolean reaches(Container c, IntOrString target) {
        if (target.getIntVal() != null) {
            return target.getIntVal() == port;
        }
        return c.getPorts().stream().filter(p -> target.getStrVal().equals(p.getName()))
                .map(ContainerPort::getContainerPort).anyMatch(p -> p == port);
    }

    private static String text(IntOrString value) {
        return value.getIntVal() != null ? value.getIntVal().toString() : value.getStrVal();
    }

    private static Map<String, Probe> probes(Container c) {
        Map<String, Function<Container, Probe>> getters = Map.of("startup", Container::getStartupProbe,
                "liveness", Container::getLivenessProbe, "readiness", Container::getReadinessProbe);
        Map<String, Probe> probes = new LinkedHashMap<>();
        PATHS.keySet().forEach(kind -> probes.put(kind, getters.get(kind).apply(c)));
        return probes;
    }

    private static Map<String, String> paths() {
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("startup", "/q/health/started");
        paths.put("liveness", "/q/health/live");
        paths.put("readiness", "/q/health/ready");
        return java.util.Collections.unmodifiableMap(paths);
    }
}
