package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Without kubectl the manifests' tests fail, saying what to install, rather than pass having checked nothing. */
class KustomizeTest {

    @Test
    void aMissingKubectlFailsNamingWhatToInstall() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> Kustomize.run("kubectl-not-installed-here", Kustomize.DEPLOYMENT.resolve("base")));
        assertTrue(e.getMessage().contains("kubectl is not installed"), e.getMessage());
        assertTrue(e.getMessage().contains(".ci/run installs it"), e.getMessage());
    }

    @Test
    void aKustomizationThatDoesNotRenderFailsWithKubectlsMessage() {
        AssertionError e = assertThrows(AssertionError.class, () -> Kustomize.run("kubectl", Path.of("no-such-dir")));
        assertTrue(e.getMessage().contains("kubectl kustomize no-such-dir failed"), e.getMessage());
    }
}
