package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The metric names a query reads are found whatever surrounds them, and one Engram does not export fails. */
class DashboardCheckTest {

    @Test
    void metricNamesAreWhatIsLeftOfAQueryButFunctionsLabelsAndVariables() {
        assertEquals(Set.of("http_server_requests_seconds_sum", "http_server_requests_seconds_count"),
                DashboardCheck.metricNames("sum by (method, uri) (rate(http_server_requests_seconds_sum"
                        + "{namespace=~\"$namespace\", uri!~\"/q/.*\"}[$__rate_interval])) / sum by (method, uri) "
                        + "(rate(http_server_requests_seconds_count{uri=~\"rate(x_total)\"}[5m] offset 1h))"));
        assertEquals(Set.of("engram_writes_total"),
                DashboardCheck.metricNames("label_values(engram_writes_total{namespace=~\"$namespace\"}, job)"));
        assertEquals(Set.of(), DashboardCheck.metricNames("label_values(namespace)"));
        assertEquals(Set.of("a_total", "b"), DashboardCheck.metricNames("a_total > bool 1e3 and on(pod) b"));
    }

    @Test
    void exportedNamesAreTheSampleNamesOfTheExposition() {
        assertEquals(Set.of("engram_writes_total", "jvm_gc_overhead"), DashboardCheck.exported(
                "# HELP engram_writes_total Entry writes\n# TYPE engram_writes_total counter\n"
                        + "engram_writes_total{outcome=\"created\"} 1.0\njvm_gc_overhead 0.0\n"));
    }

    @Test
    void aQueryOfAMetricEngramDoesNotExportIsReported() throws Exception {
        String dashboard = Files.readString(DashboardCheck.DASHBOARD);
        Set<String> names = new java.util.TreeSet<>();
        DashboardCheck.queries(dashboard).forEach(q -> names.addAll(DashboardCheck.metricNames(q)));
        assertTrue(names.contains("engram_writes_total"), names.toString());
        assertEquals(List.of(), new DashboardCheck(names).problems(dashboard));

        List<String> problems = new DashboardCheck(names)
                .problems(dashboard.replace("engram_writes_total{", "engram_write_total{"));
        assertTrue(!problems.isEmpty() && problems.stream().allMatch(p -> p.contains("asks for engram_write_total")),
                problems.toString());
    }
}
