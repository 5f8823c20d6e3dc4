package dev.engram.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Every container runs as Kubernetes' "restricted" Pod Security Standard asks, and more: not as root, no privilege
 * escalation, every capability dropped, the runtime's seccomp profile, a read-only root file system with an emptyDir
 * on /tmp as the only writable place. A container's own setting counts before its pod's.
 */
final class SecurityCheck {

    List<String> problems(Manifests manifests) {
        List<String> problems = new ArrayList<>();
        for (Workload w : manifests.workloads()) {
            PodSecurityContext pod = Optional.ofNullable(w.pod().getSecurityContext()).orElse(new PodSecurityContext());
            for (Container c : w.allContainers()) {
                SecurityContext own = Optional.ofNullable(c.getSecurityContext()).orElse(new SecurityContext());
                String where = w.where(c);
                Boolean nonRoot = first(own.getRunAsNonRoot(), pod.getRunAsNonRoot());
                if (!Boolean.TRUE.equals(nonRoot)) {
                    problems.add(where + " may run as root: set runAsNonRoot: true");
                }
                Long user = first(own.getRunAsUser(), pod.getRunAsUser());
                if (user != null && user == 0) {
                    problems.add(where + " runs as uid 0");
                }
                SeccompProfile seccomp = first(own.getSeccompProfile(), pod.getSeccompProfile());
                if (seccomp == null || !List.of("RuntimeDefault", "Localhost").contains(seccomp.getType())) {
                    problems.add(where + " has no seccomp profile: set seccompProfile.type: RuntimeDefault");
                }
                if (!Boolean.FALSE.equals(own.getAllowPrivilegeEscalation())) {
                    problems.add(where + " may escalate privileges: set allowPrivilegeEscalation: false");
                }
                if (Boolean.TRUE.equals(own.getPrivileged())) {
                    problems.add(where + " is privileged");
                }
                if (!Boolean.TRUE.equals(own.getReadOnlyRootFilesystem())) {
                    problems.add(where + " may write its root file system: set readOnlyRootFilesystem: true");
                }
                var caps = own.getCapabilities();
                if (caps == null || !caps.getDrop().contains("ALL")) {
                    problems.add(where + " keeps Linux capabilities: drop ALL");
                }
                if (caps != null && !caps.getAdd().isEmpty()) {
                    problems.add(where + " adds capabilities " + caps.getAdd());
                }
                if (!writableTmp(w, c)) {
                    problems.add(where + " has no emptyDir volume mounted writable on /tmp, where the JVM and Vert.x "
                            + "write their temporary files");
                }
            }
            if (!Boolean.FALSE.equals(w.pod().getAutomountServiceAccountToken())) {
                problems.add(w.kind() + " " + w.name() + " mounts a service account token it never uses: set "
                        + "automountServiceAccountToken: false");
            }
        }
        return problems;
    }

    private static boolean writableTmp(Workload w, Container c) {
        for (VolumeMount m : c.getVolumeMounts()) {
            if (m.getMountPath().equals("/tmp") && !Boolean.TRUE.equals(m.getReadOnly())) {
                return w.pod().getVolumes().stream().filter(v -> v.getName().equals(m.getName()))
                        .map(Volume::getEmptyDir).anyMatch(Objects::nonNull);
            }
        }
        return false;
    }

    private static <T> T first(T own, T pod) {
        return own != null ? own : pod;
    }
}
