package dev.engram.deploy;

import org.junit.jupiter.api.Test;

/** An image of another name, tag or kind than this build's fails the check. */
class ImageCheckTest {

    final ImageCheck check = new ImageCheck(AppProperties.version());

    @Test
    void aTagOtherThanPomVersionIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/postgres", "image: ghcr.io/engram-dev/engram:",
                "image: ghcr.io/engram-dev/engram:0.0.9-", "not ghcr.io/engram-dev/engram:" + AppProperties.version());
    }

    @Test
    void theJvmImageInTheKnativeServiceIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "ghcr.io/engram-dev/engram-native:",
                "ghcr.io/engram-dev/engram:", "the native image");
    }
}
