package dev.engram.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Every check of the manifests, set up with what the build says: Engram's port, keys, version and shutdown time. */
final class DeploymentChecks {

    /** The Secret docs/deploy.md asks the user to create (admin-key, db-username, db-password, llm-api-key). */
    static final String USER_SECRET = "engram";

    private DeploymentChecks() {
    }

    /** What is wrong with {@code manifests}; empty when nothing is. */
    static List<String> problems(Manifests manifests) {
        int port = AppProperties.httpPort();
        List<String> problems = new ArrayList<>();
        problems.addAll(new UnknownFieldsCheck().problems(manifests));
        problems.addAll(new ProbeCheck(port).problems(manifests));
        problems.addAll(new EnvCheck(KnownSettings.all()).problems(manifests));
        problems.addAll(new ReferenceCheck(Set.of(USER_SECRET)).problems(manifests));
        problems.addAll(new ImageCheck(AppProperties.version()).problems(manifests));
        problems.addAll(new ResourcesCheck().problems(manifests));
        problems.addAll(new SelectorCheck().problems(manifests));
        problems.addAll(new NetworkPolicyCheck(port).problems(manifests));
        problems.addAll(new SecurityCheck().problems(manifests));
        problems.addAll(new GracefulRolloutCheck(AppProperties.shutdown()).problems(manifests));
        problems.addAll(new ConnectionBudgetCheck(AppProperties.poolMaxSize()).problems(manifests));
        return problems;
    }
}
