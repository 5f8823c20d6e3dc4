package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ops.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A follower on the live journal of one replica, while another replica takes the writes, through a SIGKILL and
 * restart of the replica it follows: it resumes from Last-Event-ID and sees every record exactly once, in order.
 */
class FollowerRestartIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String STORE = "followed";
    static final int WRITES = 80;

    @Test
    void aFollowerSeesEveryRecordOnceThroughARestart() throws Exception {
        Path dir = EngramProcess.itDir("follower");
        try (EmbeddedPostgres.Server pg = EmbeddedPostgres.launch(dir, true, 0);
                EngramProcess writer = new EngramProcess("writer", pg, EngramProcess.freePort(), dir).start()) {
            int followedPort = EngramProcess.freePort();
            EngramProcess followed = new EngramProcess("followed", pg, followedPort, dir).start();
            put(writer, 0);
            List<Long> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger connections = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            Future<?> follower = pool.submit(() -> follow(followedPort, seen, stop, connections));
            try {
                for (int i = 1; i < WRITES; i++) {
                    put(writer, i);
                    if (i == WRITES / 3) {
                        followed.kill();
                    }
                    if (i == WRITES / 2) {
                        followed = new EngramProcess("followed-again", pg, followedPort, dir).start();
                    }
                    Thread.sleep(40);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (seen.size() < WRITES && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                Thread.sleep(1500);
            } finally {
                stop.set(true);
                followed.close();
                pool.shutdownNow();
            }
            List<Long> expected = new ArrayList<>();
            for (long s = 1; s <= WRITES; s++) {
                expected.add(s);
            }
            System.out.printf("follower: %d records over %d connections%n", seen.size(), connections.get());
            assertTrue(connections.get() >= 2, "the follower had to reconnect");
            assertEquals(expected, List.copyOf(seen), "every record exactly once, in order");
        }
    }

    private static void put(EngramProcess writer, int i) throws Exception {
        HttpResponse<String> r = EngramProcess.HTTP.send(EngramProcess.request(writer.uri("/v1/stores/" + STORE
                + "/scopes/notes/entries/n-" + (i % 7))).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"write " + i + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() < 300, r.body());
    }

    /** Reads events; on a broken stream, reconnects with Last-Event-ID until told to stop. */
    private static Void follow(int port, List<Long> seen, AtomicBoolean stop, AtomicInteger connections) {
        String last = null;
        while (!stop.get()) {
            try {
                HttpRequest.Builder req = EngramProcess.request(java.net.URI.create("http://localhost:" + port
                        + "/v1/stores/" + STORE + "/journal")).header("Accept", "text/event-stream");
                if (last != null) {
                    req.header("Last-Event-ID", last);
                }
                HttpResponse<java.io.InputStream> r = EngramProcess.HTTP.send(req.build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                if (r.statusCode() != 200) {
                    Thread.sleep(200);
                    continue;
                }
                connections.incrementAndGet();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                    String line;
                    String id = null;
                    while (!stop.get() && (line = in.readLine()) != null) {
                        if (line.startsWith("id:")) {
                            id = line.substring(3).trim();
                        } else if (line.startsWith("data:") && id != null) {
                            long seq = JSON.readTree(line.substring(5)).get("seq").asLong();
                            assertEquals(Long.parseLong(id), seq);
                            seen.add(seq);
                            last = id;
                        }
                    }
                }
            } catch (Exception broken) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
