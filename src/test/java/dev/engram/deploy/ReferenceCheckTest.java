package dev.engram.deploy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** A ConfigMap, Secret or key that will not be there when the pod starts fails the check. */
class ReferenceCheckTest {

    final ReferenceCheck check = new ReferenceCheck(Set.of("engram"));

    @Test
    void aConfigMapNameWithoutItsHashIsReported() {
        String yaml = Kustomize.render("base");
        String hashed = yaml.replaceAll("(?s).*name: (engram-config-[a-z0-9]+).*", "$1");
        Broken.assertOneProblem(check::problems, "base", "            name: " + hashed + "\n",
                "            name: engram-config\n", "reads ConfigMap engram-config, which is not rendered");
    }

    @Test
    void aKeyCloudNativePgDoesNotWriteIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/postgres", "key: username", "key: user",
                "reads key user of CloudNativePG's Secret engram-db-app");
    }

    @Test
    void aSecretNoOneCreatesIsReported() {
        Broken.assertProblems(check::problems, "overlays/postgres", "name: engram-db-app", "name: engram-db-user",
                "reads Secret engram-db-user, which is neither rendered");
    }

    @Test
    void aKeyTheGeneratedSecretLacksIsReported() {
        // The Deployment's ENGRAM_ADMIN_KEY and the ServiceMonitor's bearer token both name it.
        Broken.assertProblems(check::problems, "overlays/dev", "key: admin-key", "key: operator-key",
                "reads key operator-key of Secret engram, which has no such key");
    }
}
