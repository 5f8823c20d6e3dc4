package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ops.EmbeddedPostgres;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stopped and started again under load: readiness goes down and comes back, requests in between are
 * refused with 503 and Retry-After (never 500), every write acknowledged before, during or after is kept, and a
 * write retried under its Idempotency-Key until acknowledged is in the journal exactly once.
 */
class DatabaseOutageIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String STORE = "outage";

    @Test
    void readinessFollowsTheDatabaseAndNothingAcknowledgedIsLost() throws Exception {
        Path dir = EngramProcess.itDir("outage");
        int pgPort = EngramProcess.freePort();
        EmbeddedPostgres.Server pg = EmbeddedPostgres.launch(dir, true, pgPort);
        try (EngramProcess engram = new EngramProcess("engram", pg, EngramProcess.freePort(), dir).start()) {
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            List<Long> acked = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger retryAfter = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService clients = Executors.newFixedThreadPool(4);
            List<Future<?>> work = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                int client = c;
                work.add(clients.submit(() -> {
                    int i = 0;
                    while (!stop.get()) {
                        // One write per i, sent again under the same key after a 503 or a lost connection until
                        // it is acknowledged: the journal must then hold it exactly once.
                        String path = "/v1/stores/" + STORE + "/scopes/notes/entries/n-" + client + "-" + (i % 20);
                        try {
                            HttpResponse<String> r = EngramProcess.HTTP.send(EngramProcess.request(engram.uri(path))
                                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                                    .header("Idempotency-Key", "outage-" + client + "-" + i)
                                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"write " + client + "-"
                                            + i + "\"}"))
                                    .build(), HttpResponse.BodyHandlers.ofString());
                            statuses.computeIfAbsent(r.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                            if (r.statusCode() < 300) {
                                acked.add(JSON.readTree(r.body()).get("seq").asLong());
                                i++;
                            } else if (r.statusCode() == 503) {
                                JsonNode problem = JSON.readTree(r.body());
                                assertEquals("https://engram.dev/problems/unavailable", problem.get("type").asText());
                                if (r.headers().firstValue("Retry-After").isPresent()) {
                                    retryAfter.incrementAndGet();
                                }
                                Thread.sleep(100);
                            }
                        } catch (java.io.IOException e) {
                            statuses.computeIfAbsent(-1, s -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            // Writes land before the stop: waited for, not timed, as a cold JVM on a busy machine is slow to start.
            waitFor(() -> acked.size() >= 20, 60);
            int before = acked.size();
            pg.close();
            assertTrue(waitFor(() -> engram.readyStatus() == 503, 30), "readiness went down with the database");
            Thread.sleep(3000);
            pg = EmbeddedPostgres.launch(dir, false, pgPort);
            assertTrue(waitFor(() -> engram.readyStatus() == 200, 60), "readiness came back with the database");
            int atRestart = acked.size();
            Thread.sleep(3000);
            stop.set(true);
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
            clients.shutdown();

            System.out.printf("outage: statuses %s; %d acknowledged (%d before the stop, %d after the restart)%n",
                    statuses, acked.size(), before, acked.size() - atRestart);
            assertTrue(before > 0, "writes landed before the outage");
            assertTrue(acked.size() > atRestart, "writes landed after the restart");
            assertTrue(statuses.containsKey(503), "requests during the outage were refused with 503");
            assertEquals(statuses.get(503).get(), retryAfter.get(), "every 503 carried Retry-After");
            assertTrue(!statuses.containsKey(500), "no request failed with 500: " + statuses);
            Journal j = Journal.read(pg, STORE);
            j.assertGapless(STORE);
            j.assertReplayReproducesTheEntries(STORE);
            for (long seq : acked) {
                assertTrue(seq <= j.rows.size(), "acknowledged seq " + seq + " is in the journal");
            }
            Map<String, Long> copies = j.rows.stream().collect(
                    java.util.stream.Collectors.groupingBy(Journal.Row::content, java.util.stream.Collectors.counting()));
            copies.forEach((content, n) -> assertEquals(1L, n, content + " was written once, retries and all"));
        } finally {
            pg.close();
        }
    }

    static boolean waitFor(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }
}
