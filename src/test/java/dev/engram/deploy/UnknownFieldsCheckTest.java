package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** A field the Kubernetes API does not have, anywhere in a typed object or a Knative pod spec, fails the check. */
class UnknownFieldsCheckTest {

    final UnknownFieldsCheck check = new UnknownFieldsCheck();

    @Test
    void aMisspeltProbeIsReported() {
        Broken.assertOneProblem(check::problems, "base", "readinessProbe:", "readinesProbe:",
                "has fields the Kubernetes API does not: [readinesProbe]");
    }

    @Test
    void aMisspeltFieldInAKnativePodSpecIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "automountServiceAccountToken: false",
                "automountServiceAccountTokens: false", "[automountServiceAccountTokens]");
    }
}
