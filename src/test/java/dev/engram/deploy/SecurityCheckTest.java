package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** Each loosened security setting, at the container or the pod, fails the check. */
class SecurityCheckTest {

    final SecurityCheck check = new SecurityCheck();

    @Test
    void aWritableRootFileSystemIsReported() {
        Broken.assertOneProblem(check::problems, "base", "readOnlyRootFilesystem: true",
                "readOnlyRootFilesystem: false", "may write its root file system");
    }

    @Test
    void privilegeEscalationIsReported() {
        Broken.assertOneProblem(check::problems, "base", "allowPrivilegeEscalation: false",
                "allowPrivilegeEscalation: true", "may escalate privileges");
    }

    @Test
    void capabilitiesKeptAreReported() {
        Broken.assertOneProblem(check::problems, "base", "drop:\n            - ALL", "drop:\n            - NET_RAW",
                "keeps Linux capabilities");
    }

    @Test
    void rootIsReported() {
        Broken.assertOneProblem(check::problems, "base", "runAsNonRoot: true", "runAsNonRoot: false",
                "may run as root");
    }

    @Test
    void noSeccompProfileIsReported() {
        Broken.assertOneProblem(check::problems, "base", "type: RuntimeDefault", "type: Unconfined",
                "has no seccomp profile");
    }

    @Test
    void tmpOnTheRootFileSystemIsReported() {
        Broken.assertOneProblem(check::problems, "base", "mountPath: /tmp", "mountPath: /var/tmp",
                "no emptyDir volume mounted writable on /tmp");
    }

    @Test
    void theKnativeContainerIsCheckedOnItsOwnSettings() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "runAsNonRoot: true", "runAsNonRoot: false",
                "Knative Service engram, container engram may run as root");
    }
}
