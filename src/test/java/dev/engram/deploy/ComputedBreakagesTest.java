package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Breaks that breakages.txt cannot hold: each needs a value computed from the build or the rendering. */
class ComputedBreakagesTest {

    @Test
    void aContainerPortOtherThanEngramsIsReported() {
        // The probes and the Service follow the renamed port's number; each of the three then misses 8080.
        var problems = new ProbeCheck(8080).problems(Broken.render("base", "containerPort: 8080",
                "containerPort: 9090"));
        assertTrue(problems.get(0).contains("declares no container port 8080"), problems.toString());
    }

    @Test
    void aQuarkusKeyTheDocsDoNotNameIsReportedEvenIfQuarkusKnowsIt() {
        assertTrue(QuarkusKeys.byEnv().containsKey("QUARKUS_LOG_LEVEL"));
        List<String> problems = new EnvCheck(KnownSettings.all()).problems(Broken.render("base",
                "QUARKUS_DATASOURCE_JDBC_MAX_SIZE:", "QUARKUS_LOG_LEVEL:"));
        assertEquals(1, problems.size(), problems.toString());
    }

    @Test
    void withoutAGracePeriodKubernetesDefaultOf30SecondsCounts() {
        Broken.assertOneProblem(new GracefulRolloutCheck(Duration.ofSeconds(30))::problems, "base",
                "      terminationGracePeriodSeconds: 40\n", "", "gives a stopping pod 30 s");
    }

    @Test
    void aConfigMapNameWithoutItsHashIsReported() {
        String yaml = Kustomize.render("base");
        String hashed = yaml.replaceAll("(?s).*name: (engram-config-[a-z0-9]+).*", "$1");
        Broken.assertOneProblem(new ReferenceCheck(Set.of("engram"))::problems, "base",
                "            name: " + hashed + "\n", "            name: engram-config\n",
                "reads ConfigMap engram-config, which is not rendered");
    }

    @Test
    void anImageTagOtherThanThePomVersionIsReported() {
        Broken.assertOneProblem(new ImageCheck(AppProperties.version())::problems, "overlays/postgres",
                "image: ghcr.io/engram-dev/engram:", "image: ghcr.io/engram-dev/engram:0.0.9-",
                "not ghcr.io/engram-dev/engram:" + AppProperties.version());
    }
}
