package dev.engram.deploy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.TestAuth;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the manifests ask of Engram, asked of the running Engram: every probe path of every rendering answers UP to a
 * caller without a key (as the kubelet calls), and every metric the Grafana dashboard queries is in /q/metrics once
 * the traffic that registers each has run.
 */
@QuarkusTest
class EngramServesTheManifestsTest {

    @Test
    void everyProbePathOfEveryRenderingAnswersUpWithoutAKey() {
        Set<String> paths = new TreeSet<>();
        for (String dir : Kustomize.OVERLAYS) {
            for (Workload w : Manifests.of(dir).workloads()) {
                for (Container c : w.pod().getContainers()) {
                    Stream.of(c.getStartupProbe(), c.getLivenessProbe(), c.getReadinessProbe())
                            .map(Probe::getHttpGet).forEach(get -> paths.add(get.getPath()));
                }
            }
        }
        assertEquals(new TreeSet<>(ProbeCheck.PATHS.values()), paths);
        for (String path : paths) {
            given().filter(TestAuth.NO_TOKEN).get(path).then().statusCode(200).body("status", equalTo("UP"));
        }
    }

    @Test
    void everyMetricTheDashboardQueriesIsExportedOnceTrafficHasRun() throws Exception {
        traffic();
        String exposition = given().get("/q/metrics").then().statusCode(200).extract().asString();
        String dashboard = Files.readString(DashboardCheck.DASHBOARD);
        assertEquals(List.of(), new DashboardCheck(DashboardCheck.exported(exposition)).problems(dashboard));
    }

    /**
     * Requests that make Engram register the meters it registers lazily: the HTTP timer (any request), entry writes,
     * the journal's followers, the contexts' compactions, pruned and evicted outputs and fill (a prompt), and the
     * cache's reads (a read of a cached tool result).
     */
    private static void traffic() {
        String store = "deploy-" + UUID.randomUUID().toString().substring(0, 8);
        String s = "/v1/stores/" + store;
        json("{\"content\": \"Short answers.\"}").put(s + "/scopes/user/entries/style").then().statusCode(201);
        given().get(s + "/journal?after=0").then().statusCode(200);
        json("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"type\": \"fact\", \"content\": \"Apollo ships.\"}")
                .post(s + "/memories").then().statusCode(201);
        json("{\"query\": \"apollo\", \"banks\": [\"user:alice\"]}").post(s + "/memories/search").then()
                .statusCode(200);
        String c = s + "/contexts/run-1";
        json("{}").put(c).then().statusCode(201);
        json("{\"steps\": [{\"thought\": \"Read it.\", \"action\": {\"id\": \"c1\", \"name\": \"read_file\", "
                + "\"input\": {\"path\": \"a.txt\"}}, \"observation\": \"line1\", \"cache\": true}]}")
                .post(c + "/steps").then().statusCode(200);
        given().get(c + "/prompt").then().statusCode(200);
        given().get(c + "/fill").then().statusCode(200);
        given().get(c + "/tool-results/0000").then().statusCode(404);
    }

    private static io.restassured.specification.RequestSpecification json(String body) {
        return given().contentType("application/json").body(body);
    }
}
