package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ops.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two Engram JVMs on one PostgreSQL; clients write through one of them, a follower follows its journal live, and it
 * is sent SIGTERM mid-run. Its readiness goes DOWN while it still serves, every request in flight before its
 * shutdown delay ended is answered, nothing it acknowledged is missing from the journal, a slow request still sending
 * its body when the delay ended is answered, the follower is told where to resume and resumes on the other replica
 * with no gap and no record twice, and the process exits well before its shutdown timeout.
 */
class GracefulShutdownIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String STORE = "graceful";
    static final int DELAY_MS = 3000;
    /** The production timeout (application.properties); the exit must come well before delay + timeout. */
    static final int TIMEOUT_MS = 20_000;

    /** One request a writer sent to the leaving replica: when, and its status or how it failed. */
    record Sent(long startNanos, long endNanos, int status, String failure, long seq, String hash) {
    }

    /** One readiness probe of the leaving replica: when, and its status (-1: no connection). */
    record Probe(long nanos, int status) {
    }

    /** One event of a follower's stream. */
    record Event(String name, String id, String data) {
    }

    @Test
    void aReplicaLeavesOnSigtermWithoutLosingWhatItAcknowledged() throws Exception {
        Path dir = EngramProcess.itDir("graceful");
        try (EmbeddedPostgres.Server pg = EmbeddedPostgres.launch(dir, true, 0)) {
            EngramProcess leaving = new EngramProcess("leaving", pg, EngramProcess.freePort(), dir)
                    .env("QUARKUS_SHUTDOWN_DELAY", DELAY_MS + "MS")
                    .env("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "15S");
            EngramProcess staying = new EngramProcess("staying", pg, EngramProcess.freePort(), dir)
                    .env("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "15S");
            try {
                ExecutorService starting = Executors.newFixedThreadPool(2);
                for (Future<?> f : starting.invokeAll(List.<Callable<Object>>of(leaving::start, staying::start))) {
                    f.get();
                }
                starting.shutdown();
                run(pg, leaving, staying);
            } finally {
                leaving.close();
                staying.close();
            }
        }
    }

    private void run(EmbeddedPostgres.Server pg, EngramProcess leaving, EngramProcess staying) throws Exception {
        assertEquals(201, put(leaving, "first", "before anyone follows").status());
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        // Read (streamed, counted) while the writers, the prober and the follower still add: copy-on-write lists,
        // since streaming a synchronized list as another thread adds to it throws ConcurrentModificationException.
        List<Sent> sent = new CopyOnWriteArrayList<>();
        List<Probe> probes = new CopyOnWriteArrayList<>();
        List<Event> onLeaving = new CopyOnWriteArrayList<>();
        List<Event> onStaying = new CopyOnWriteArrayList<>();
        AtomicReference<String> resumedWith = new AtomicReference<>();

        Future<?> follower = pool.submit(() -> follow(leaving, staying, onLeaving, onStaying, resumedWith, stop));
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            writers.add(pool.submit(() -> write(leaving, writer, sent)));
        }
        while (sent.stream().filter(s -> s.status() == 201 || s.status() == 200).count() < 20
                || onLeaving.size() < 5) {
            Thread.sleep(50);
        }
        Future<?> prober = pool.submit(() -> probe(leaving, probes, stop));
        // A request still sending its body when the delay is over: its last byte goes out a second after that.
        Future<Sent> slow = pool.submit(() -> slowPut(leaving, DELAY_MS + 1500));
        Thread.sleep(300);

        long term = System.nanoTime();
        leaving.terminate();
        int status = leaving.exitStatus(60);
        long exited = System.nanoTime();
        for (Future<?> w : writers) {
            w.get(30, TimeUnit.SECONDS);
        }
        Sent slowSent = slow.get(30, TimeUnit.SECONDS);
        long exitMs = (exited - term) / 1_000_000;

        Journal j = Journal.read(pg, STORE);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (seqs(onStaying).size() + seqs(onLeaving).size() < j.rows.size() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        stop.set(true);
        prober.get(30, TimeUnit.SECONDS);
        if (follower.isDone()) {
            follower.get(); // its failure, if it failed
        }
        pool.shutdownNow();

        // the exit: well before the timeout, so no stream held the shutdown
        assertTrue(status == 0 || status == 143, "exit status " + status);
        assertTrue(exitMs < DELAY_MS + 8000, "exited " + exitMs + " ms after SIGTERM, not held to the "
                + (DELAY_MS + TIMEOUT_MS) + " ms of delay and timeout");

        // readiness went DOWN before the replica stopped taking connections, and never came back
        List<Probe> after = probes.stream().filter(p -> p.nanos() > term).toList();
        int firstDown = indexOf(after, 503);
        int firstGone = indexOf(after, -1);
        assertTrue(firstDown >= 0, "readiness answered 503 during the delay: " + after);
        assertTrue(firstGone < 0 || firstDown < firstGone, "503 came before connections were refused: " + after);
        assertTrue(after.subList(firstDown, after.size()).stream().noneMatch(p -> p.status() == 200),
                "readiness stayed DOWN: " + after);
        long down = after.get(firstDown).nanos();

        // served while DOWN; answered if in flight before the delay ended
        assertTrue(sent.stream().anyMatch(s -> s.startNanos() > down && (s.status() == 201 || s.status() == 200)),
                "writes sent after readiness went DOWN were still served");
        long delayOver = term + TimeUnit.MILLISECONDS.toNanos(DELAY_MS - 300);
        List<Sent> unanswered = sent.stream().filter(s -> s.startNanos() < delayOver && s.status() < 0).toList();
        assertEquals(List.of(), unanswered, "every request sent before the delay ended was answered");
        assertTrue(sent.stream().allMatch(s -> s.status() < 0 || s.status() == 200 || s.status() == 201),
                "the writes that were answered succeeded");
        assertEquals(201, slowSent.status(), "the request still sending its body when the delay ended: "
                + slowSent.failure());

        // nothing acknowledged is lost
        j = Journal.read(pg, STORE);
        j.assertGapless(STORE);
        j.assertReplayReproducesTheEntries(STORE);
        List<Sent> acked = new ArrayList<>(sent.stream().filter(s -> s.seq() > 0).toList());
        acked.add(slowSent);
        for (Sent a : acked) {
            assertTrue(a.seq() <= j.rows.size(), "seq " + a.seq() + " was acknowledged and is missing");
            assertEquals(a.hash(), j.at(a.seq()).hash(), "seq " + a.seq() + " holds what was acknowledged");
        }

        // the follower was told where to resume, resumed there on the other replica, and saw each record once
        Event reconnect = onLeaving.stream().filter(e -> e.name().equals("reconnect")).findFirst().orElse(null);
        assertNotNull(reconnect, "the follower of the leaving replica was sent a reconnect event: " + onLeaving);
        assertEquals(reconnect, onLeaving.get(onLeaving.size() - 1), "the reconnect event is the last one");
        List<Long> before = seqs(onLeaving);
        long lastSeq = JSON.readTree(reconnect.data()).get("last_seq").asLong();
        assertEquals(before.get(before.size() - 1), lastSeq, "last_seq is the last record it was sent");
        assertEquals(Long.toString(lastSeq), resumedWith.get(), "it resumed after last_seq");
        long ackedBeforeTerm = sent.stream().filter(s -> s.endNanos() < term && s.seq() > 0)
                .mapToLong(Sent::seq).max().orElse(0);
        assertTrue(lastSeq > ackedBeforeTerm, "the follower was still sent records during the delay: last_seq "
                + lastSeq + ", acknowledged before SIGTERM " + ackedBeforeTerm);
        List<Long> all = new ArrayList<>(before);
        all.addAll(seqs(onStaying));
        List<Long> expected = new ArrayList<>();
        for (long s = 1; s <= j.rows.size(); s++) {
            expected.add(s);
        }
        assertEquals(expected, all, "every record once, in order, across the two replicas");

        System.out.printf("graceful: exit status %d %d ms after SIGTERM (delay %d ms); readiness DOWN %d ms after "
                + "SIGTERM; %d writes sent, %d acknowledged, %d refused connection, %d cut; follower resumed after "
                + "seq %d of %d; slow request answered %d ms after SIGTERM%n", status, exitMs, DELAY_MS,
                (down - term) / 1_000_000, sent.size(), acked.size(),
                sent.stream().filter(s -> "refused".equals(s.failure())).count(),
                sent.stream().filter(s -> s.status() < 0 && !"refused".equals(s.failure())).count(), lastSeq,
                j.rows.size(), (slowSent.endNanos() - term) / 1_000_000);
        sent.stream().filter(s -> s.status() < 0 && !"refused".equals(s.failure())).forEach(s -> System.out.printf(
                "graceful: cut off, sent %d ms after SIGTERM: %s%n", (s.startNanos() - term) / 1_000_000, s.failure()));
    }

    private static int indexOf(List<Probe> probes, int status) {
        for (int i = 0; i < probes.size(); i++) {
            if (probes.get(i).status() == status) {
                return i;
            }
        }
        return -1;
    }

    /** Writes through {@code replica} until it refuses connections. */
    private static Void write(EngramProcess replica, int writer, List<Sent> sent) throws Exception {
        for (int i = 0; ; i++) {
            Sent s = put(replica, "w" + writer + "-" + (i % 5), "writer " + writer + " write " + i);
            sent.add(s);
            if ("refused".equals(s.failure())) {
                return null;
            }
        }
    }

    private static Sent put(EngramProcess replica, String name, String content) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> r = EngramProcess.HTTP.send(EngramProcess.request(replica.uri("/v1/stores/" + STORE
                    + "/scopes/notes/entries/" + name)).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"" + content + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return answered(start, r.statusCode(), r.body());
        } catch (ConnectException refused) {
            return new Sent(start, System.nanoTime(), -1, "refused", 0, null);
        } catch (Exception cut) {
            return new Sent(start, System.nanoTime(), -1, cut.toString(), 0, null);
        }
    }

    private static Sent answered(long start, int status, String body) throws Exception {
        if (status != 200 && status != 201) {
            return new Sent(start, System.nanoTime(), status, body, 0, null);
        }
        JsonNode change = JSON.readTree(body);
        return new Sent(start, System.nanoTime(), status, null, change.get("seq").asLong(),
                change.get("entry").get("hash").asText());
    }

    /** A PUT over a plain socket whose body trickles out over {@code millis}. */
    private static Sent slowPut(EngramProcess replica, long millis) throws Exception {
        byte[] body = "{\"content\":\"sent slowly, across the shutdown delay\"}".getBytes(StandardCharsets.UTF_8);
        long start = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", replica.port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /v1/stores/" + STORE + "/scopes/notes/entries/slow HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + EngramProcess.ADMIN_KEY + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            int pieces = 10;
            for (int i = 0; i < pieces; i++) {
                out.write(body, i * body.length / pieces, (i + 1) * body.length / pieces - i * body.length / pieces);
                out.flush();
                Thread.sleep(millis / pieces);
            }
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(response.substring(9, 12));
            String json = response.substring(response.indexOf("\r\n\r\n") + 4);
            return answered(start, status, json);
        } catch (Exception cut) {
            return new Sent(start, System.nanoTime(), -1, cut.toString(), 0, null);
        }
    }

    private static Void probe(EngramProcess replica, List<Probe> probes, AtomicBoolean stop) throws Exception {
        while (!stop.get()) {
            probes.add(new Probe(System.nanoTime(), replica.readyStatus()));
            Thread.sleep(50);
        }
        return null;
    }

    /**
     * Follows the journal on {@code leaving} until its stream ends, then resumes on {@code staying} with
     * Last-Event-ID, as a client told to reconnect elsewhere would, until told to stop.
     */
    private static Void follow(EngramProcess leaving, EngramProcess staying, List<Event> onLeaving,
            List<Event> onStaying, AtomicReference<String> resumedWith, AtomicBoolean stop) throws Exception {
        events(leaving.uri("/v1/stores/" + STORE + "/journal?after=0"), null, onLeaving, stop);
        List<Long> seen = seqs(onLeaving);
        String last = seen.isEmpty() ? "0" : Long.toString(seen.get(seen.size() - 1));
        resumedWith.set(last);
        events(staying.uri("/v1/stores/" + STORE + "/journal"), last, onStaying, stop);
        return null;
    }

    private static void events(URI uri, String lastEventId, List<Event> into, AtomicBoolean stop) throws Exception {
        HttpRequest.Builder req = EngramProcess.request(uri).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            req.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> r = EngramProcess.HTTP.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String name = "message";
            String id = null;
            String data = null;
            for (String line = in.readLine(); line != null && !stop.get(); line = in.readLine()) {
                if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("data:")) {
                    data = line.substring(5).trim();
                } else if (line.isEmpty() && data != null) {
                    into.add(new Event(name, id, data));
                    name = "message";
                    id = null;
                    data = null;
                }
            }
        }
    }

    private static List<Long> seqs(List<Event> events) {
        synchronized (events) {
            return events.stream().filter(e -> e.name().equals("change")).map(e -> Long.parseLong(e.id())).toList();
        }
    }
}
