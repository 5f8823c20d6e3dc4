package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A setting no one reads, misspelt in the Deployment or in the ConfigMap it takes whole, fails the check. */
class EnvCheckTest {

    final EnvCheck check = new EnvCheck(KnownSettings.all());

    @Test
    void aMisspeltQuarkusKeyInTheConfigMapIsReported() {
        Broken.assertOneProblem(check::problems, "base", "QUARKUS_DATASOURCE_JDBC_URL:",
                "QUARKUS_DATASOURCE_JDBC_ULR:", "sets QUARKUS_DATASOURCE_JDBC_ULR, which is no setting Engram reads");
    }

    @Test
    void aMisspeltEngramKeyInTheDeploymentIsReported() {
        Broken.assertOneProblem(check::problems, "base", "name: ENGRAM_ADMIN_KEY", "name: ENGRAM_ADMIN_KEYS",
                "Deployment engram, container engram sets ENGRAM_ADMIN_KEYS");
    }

    @Test
    void aMisspeltKeyInTheKnativeServiceIsReported() {
        Broken.assertOneProblem(check::problems, "overlays/knative", "name: ENGRAM_REFLECT_LLM_API_KEY",
                "name: ENGRAM_REFLECT_LLM_APIKEY", "Knative Service engram");
    }

    @Test
    void aSecretTakenWholeCannotBeChecked() {
        Broken.assertOneProblem(check::problems, "base", "envFrom:\n        - configMapRef:",
                "envFrom:\n        - secretRef:", "cannot be checked");
    }

    @Test
    void aQuarkusKeyTheDocsDoNotNameIsReportedEvenIfQuarkusKnowsIt() {
        assertTrue(QuarkusKeys.byEnv().containsKey("QUARKUS_LOG_LEVEL"));
        List<String> problems = check.problems(Broken.render("base", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE:",
                "QUARKUS_LOG_LEVEL:"));
        assertEquals(1, problems.size(), problems.toString());
    }
}
