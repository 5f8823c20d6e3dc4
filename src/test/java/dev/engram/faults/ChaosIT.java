package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.faults.ChaosClient.Outcome;
import dev.engram.ops.EmbeddedPostgres;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Chaos: two Engram replicas on one PostgreSQL, writers on every tier's write routes (entry PUT, PATCH and DELETE;
 * memory save; context step append), each write under its own {@code Idempotency-Key} and sent again with that key
 * after a timeout, a cut connection or a 5xx until it is acknowledged, while replicas and PostgreSQL are killed with
 * SIGKILL and started again at intervals. At the end every acknowledged write is there exactly once (an entry's
 * final content and its journal rows; one memory per key; each context's steps once each, in order), the journal
 * is gapless and replays to the live entries, and the figures are printed (acks, lost, doubled, 5xx during and
 * outside the kills, recovery after each kill).
 *
 * <p>Not part of every build (it runs only when asked): {@code bench/chaos 60} for a one-minute run,
 * {@code bench/chaos 1800} for the half hour of docs/benchmarks.md ("Fault tests"); {@code -Dchaos.seconds=N} and
 * {@code -Dchaos.interval=N} (seconds between kills, default 10) set the run.
 */
@EnabledIfSystemProperty(named = "chaos.seconds", matches = "\\d+")
class ChaosIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String STORE = "chaos";
    static final int SECONDS = Integer.getInteger("chaos.seconds", 60);
    static final int INTERVAL = Integer.getInteger("chaos.interval", 10);
    static final int WRITERS = Integer.getInteger("chaos.writers", 2);

    final List<EngramProcess> replicas = new ArrayList<>();
    final ChaosClient chaos = new ChaosClient(replicas);
    final List<String> recoveries = Collections.synchronizedList(new ArrayList<>());
    volatile EmbeddedPostgres.Server pg;

    @Test
    void everyAcknowledgedWriteIsThereExactlyOnce() throws Exception {
        Path dir = EngramProcess.itDir("chaos");
        int pgPort = EngramProcess.freePort();
        pg = EmbeddedPostgres.launch(dir, true, pgPort);
        try {
            for (int i = 0; i < 2; i++) {
                replicas.add(new EngramProcess("chaos-" + i, pg, EngramProcess.freePort(), dir)
                        .env("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "15S"));
            }
            for (EngramProcess r : replicas) {
                start(r);
            }
            run(dir, pgPort);
        } finally {
            for (EngramProcess r : replicas) {
                r.close();
            }
            pg.close();
        }
    }

    private void run(Path dir, int pgPort) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3 * WRITERS);
        List<Future<ChaosEntryWriter>> entries = new ArrayList<>();
        List<Future<Integer>> memories = new ArrayList<>();
        List<Future<Integer>> steps = new ArrayList<>();
        for (int c = 0; c < WRITERS; c++) {
            ChaosEntryWriter w = new ChaosEntryWriter(chaos, c);
            entries.add(pool.submit(() -> {
                w.run();
                return w;
            }));
            int client = c;
            memories.add(pool.submit(() -> memoryWriter(client)));
            steps.add(pool.submit(() -> stepWriter(client)));
        }
        Random random = new Random(20261201L);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        int kills = 0;
        while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(INTERVAL / 2)) {
            Thread.sleep(TimeUnit.SECONDS.toMillis(INTERVAL));
            kills++;
            chaos.disturbed.incrementAndGet();
            long at = System.nanoTime();
            String what;
            if (kills % 3 == 2) {
                what = "PostgreSQL";
                killPostgres(dir);
                try {
                    pg.close(); // releases the data directory's lock; its server is already gone
                } catch (Exception e) {
                    // pg_ctl found nothing to stop
                }
                Thread.sleep(1000);
                pg = EmbeddedPostgres.launch(dir, false, pgPort);
            } else {
                EngramProcess victim = replicas.get(random.nextInt(replicas.size()));
                what = victim.name;
                victim.kill();
                Thread.sleep(1000);
                start(victim);
            }
            recoveries.add(what + " " + waitForWrites(at) + " ms");
            System.out.println("chaos: killed " + recoveries.get(recoveries.size() - 1));
            chaos.disturbed.decrementAndGet();
        }
        chaos.stop.set(true);
        long acked = 0;
        List<ChaosEntryWriter> done = new ArrayList<>();
        for (Future<ChaosEntryWriter> f : entries) {
            done.add(f.get(5, TimeUnit.MINUTES));
        }
        Map<String, Integer> memoriesAcked = new HashMap<>();
        for (int c = 0; c < WRITERS; c++) {
            memoriesAcked.put("m" + c, memories.get(c).get(5, TimeUnit.MINUTES));
        }
        List<Integer> stepsAcked = new ArrayList<>();
        for (Future<Integer> f : steps) {
            stepsAcked.add(f.get(5, TimeUnit.MINUTES));
        }
        pool.shutdown();

        // ------------------------------------------------------------------------------------------ the checks
        List<String> lost = new ArrayList<>();
        List<String> doubled = new ArrayList<>();
        Journal j = Journal.read(pg, STORE);
        for (ChaosEntryWriter w : done) {
            acked += w.acked;
            w.check(j, lost, doubled);
        }
        Map<String, Integer> memoryCopies = memoryCopies();
        for (int c = 0; c < WRITERS; c++) {
            int n = memoriesAcked.get("m" + c);
            acked += n;
            for (int i = 0; i < n; i++) {
                int copies = memoryCopies.getOrDefault("fact " + c + " " + i, 0);
                if (copies == 0) {
                    lost.add("memory fact " + c + " " + i);
                } else if (copies > 1) {
                    doubled.add("memory fact " + c + " " + i + " x" + copies);
                }
            }
        }
        for (int c = 0; c < WRITERS; c++) {
            int n = stepsAcked.get(c);
            acked += n;
            List<String> thoughts = thoughts(c);
            Map<String, Integer> seen = new LinkedHashMap<>();
            thoughts.forEach(t -> seen.merge(t, 1, Integer::sum));
            for (int i = 0; i < n; i++) {
                int copies = seen.getOrDefault("step " + c + " " + i, 0);
                if (copies == 0) {
                    lost.add("context ctx-" + c + " step " + i);
                } else if (copies > 1) {
                    doubled.add("context ctx-" + c + " step " + i + " x" + copies);
                }
            }
            List<String> distinct = new ArrayList<>(seen.keySet());
            for (int i = 0; i < distinct.size(); i++) {
                if (!distinct.get(i).equals("step " + c + " " + i)) {
                    lost.add("context ctx-" + c + " out of order at " + i + ": " + distinct.get(i));
                    break;
                }
            }
        }
        System.out.printf("chaos: %d s, %d kills; acknowledged %d writes (entries %d, memories %d, steps %d); "
                        + "lost %d, doubled %d; refused for good %d%n", SECONDS, kills, acked,
                done.stream().mapToLong(w -> w.acked).sum(), memoriesAcked.values().stream().mapToInt(i -> i).sum(),
                stepsAcked.stream().mapToInt(i -> i).sum(), lost.size(), doubled.size(), chaos.refusals.size());
        System.out.printf("chaos: 5xx during kills %d, outside %d; connections cut during kills %d, outside %d; "
                        + "replayed %d; answers %s%n", chaos.count("5xx during kills"),
                chaos.count("5xx outside kills"), chaos.count("cut during kills"), chaos.count("cut outside kills"),
                chaos.count("replayed"),
                new java.util.TreeMap<>(chaos.counts));
        System.out.printf("chaos: recovery after each kill (to a write acknowledged by every replica): %s%n",
                recoveries);
        lost.stream().limit(20).forEach(l -> System.out.println("chaos: lost " + l));
        doubled.stream().limit(20).forEach(d -> System.out.println("chaos: doubled " + d));
        chaos.refusals.stream().limit(20).forEach(r -> System.out.println("chaos: refused " + r));
        j.assertGapless(STORE);
        // the journal also records memory and context changes (no scope); the entries replay from their own rows
        Journal entryRows = new Journal();
        j.rows.stream().filter(r -> r.scope() != null && !r.scope().isEmpty()).forEach(entryRows.rows::add);
        entryRows.live.putAll(j.live);
        entryRows.assertReplayReproducesTheEntries(STORE);
        assertTrue(acked > 0, "writes were acknowledged");
        assertEquals(List.of(), lost, "no acknowledged write is lost");
        assertEquals(List.of(), doubled, "no acknowledged write is there twice");
        assertEquals(0, chaos.count("5xx outside kills"), "no 5xx while nothing was being killed: " + chaos.counts);
    }

    // -------------------------------------------------------------------------------------------------- writers

    /** Saves memories under keys of their own: how many were acknowledged, in order, before the stop. */
    private int memoryWriter(int client) throws InterruptedException {
        int i = 0;
        while (!chaos.stop.get()) {
            Outcome o = chaos.send("POST", "/v1/stores/" + STORE + "/memories", "{\"content\": \"fact " + client
                    + " " + i + "\"}", "m-" + client + "-" + i);
            if (o != Outcome.ACKED) {
                return i;
            }
            i++;
        }
        return i;
    }

    /** Appends one step at a time to its own context: how many were acknowledged. */
    private int stepWriter(int client) throws InterruptedException {
        String context = "/v1/stores/" + STORE + "/contexts/ctx-" + client;
        if (chaos.send("PUT", context, "{}", null) != Outcome.ACKED) {
            return 0;
        }
        int i = 0;
        while (!chaos.stop.get()) {
            Outcome o = chaos.send("POST", context + "/steps", "{\"steps\": [{\"thought\": \"step " + client + " " + i
                    + "\"}]}", "s-" + client + "-" + i);
            if (o != Outcome.ACKED) {
                return i;
            }
            i++;
        }
        return i;
    }

    // ------------------------------------------------------------------------------------------------ the faults

    /** Starts a replica and waits for it to be ready: up to 5 minutes (a loaded machine starts a JVM slowly; EngramProcess.start waits 60 s). */
    private static void start(EngramProcess replica) throws Exception {
        Process p = replica.launch();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (replica.readyStatus() != 200) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(replica.name + " did not start; see " + replica.log);
            }
            Thread.sleep(100);
        }
    }

    /** SIGKILL to the postmaster (its backends end when they see it gone). */
    private static void killPostgres(Path dir) throws Exception {
        long pid = Long.parseLong(Files.readAllLines(dir.resolve("pg").resolve("postmaster.pid")).get(0).trim());
        ProcessHandle pm = ProcessHandle.of(pid).orElseThrow();
        List<ProcessHandle> backends = pm.children().toList();
        pm.destroyForcibly();
        pm.onExit().get(20, TimeUnit.SECONDS);
        for (ProcessHandle b : backends) {
            try {
                b.onExit().get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                b.destroyForcibly();
            }
        }
    }

    /** Milliseconds from {@code since} until a probe write was acknowledged by every replica. */
    private long waitForWrites(long since) throws Exception {
        for (EngramProcess r : replicas) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline) {
                try {
                    HttpResponse<Void> p = EngramProcess.HTTP.send(EngramProcess.request(
                            r.uri("/v1/stores/chaos-probe/scopes/notes/entries/probe")).timeout(Duration.ofSeconds(3))
                            .header("Content-Type", "application/json")
                            .PUT(HttpRequest.BodyPublishers.ofString("{\"content\": \"" + System.nanoTime() + "\"}"))
                            .build(), HttpResponse.BodyHandlers.discarding());
                    if (p.statusCode() < 300) {
                        break;
                    }
                } catch (java.io.IOException e) {
                    // not back yet
                }
                Thread.sleep(100);
            }
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    // -------------------------------------------------------------------------------------- what the store holds

    private Map<String, Integer> memoryCopies() throws Exception {
        Map<String, Integer> copies = new HashMap<>();
        try (Connection c = DriverManager.getConnection(pg.url(), "postgres", pg.password());
                PreparedStatement s = c.prepareStatement("select content, count(*) from memory where store_id = ? "
                        + "group by content")) {
            s.setString(1, STORE);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    copies.put(r.getString(1), r.getInt(2));
                }
            }
        }
        return copies;
    }

    private List<String> thoughts(int client) throws Exception {
        HttpResponse<String> r = EngramProcess.HTTP.send(EngramProcess.request(replicas.get(0).uri("/v1/stores/"
                + STORE + "/contexts/ctx-" + client + "/steps")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        List<String> thoughts = new ArrayList<>();
        for (JsonNode step : JSON.readTree(r.body()).path("steps")) {
            thoughts.add(step.path("thought").asText());
        }
        return thoughts;
    }
}
