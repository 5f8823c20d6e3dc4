package dev.engram.faults;

import static dev.engram.faults.DatabaseOutageIT.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged Engram on its own embedded PostgreSQL, run the way a user runs it: it listens on loopback only and
 * will not listen beyond it without credentials; when its PostgreSQL is killed it starts it again (readiness comes
 * back, the data with it), and when that keeps failing its liveness goes DOWN.
 */
class EmbeddedEngramIT {

    static int status(EngramProcess engram, String path) {
        try {
            return EngramProcess.HTTP.send(EngramProcess.request(engram.uri(path)).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    static HttpResponse<String> send(EngramProcess engram, String method, String path, String body)
            throws Exception {
        return EngramProcess.HTTP.send(EngramProcess.request(engram.uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An address of this machine that other machines could use, if it has one. */
    static Optional<InetAddress> networkAddress() throws IOException {
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (n.isUp() && !n.isLoopback()) {
                for (InetAddress a : Collections.list(n.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                        return Optional.of(a);
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void aLocalRunStopsWithoutTheShutdownDelay() throws Exception {
        // the production delay (5 s of serving while readiness is DOWN) is for a load balancer; a local run has none,
        // and its embedded PostgreSQL stops with the JVM, so requests served during a delay would only fail
        Path dir = emptied(EngramProcess.itDir("embedded-stop"));
        EngramProcess local = EngramProcess.embedded("local", EngramProcess.freePort(), dir)
                .env("QUARKUS_SHUTDOWN_DELAY", null).start();
        try {
            local.terminate();
            assertNotEquals(-1, local.exitStatus(4), "a local Engram still ran 4 s after SIGTERM");
        } finally {
            local.close();
        }
    }

    @Test
    void listensOnLoopbackOnlyAndWillNotListenBeyondItWithoutCredentials() throws Exception {
        Path dir = emptied(EngramProcess.itDir("embedded-bind"));
        Optional<InetAddress> network = networkAddress();
        try (EngramProcess local = EngramProcess.embedded("local", EngramProcess.freePort(), dir).start()) {
            assertEquals(200, status(local, "/q/health/ready"));
            if (network.isPresent()) {
                try (Socket s = new Socket()) {
                    assertThrows(IOException.class,
                            () -> s.connect(new InetSocketAddress(network.get(), local.port), 2000),
                            "nothing answers on " + network.get());
                }
            }
            assertTrue(String.join("\n", local.logTail()).contains("listening on 127.0.0.1 only"));
        }

        EngramProcess exposed = EngramProcess.embedded("exposed", EngramProcess.freePort(), dir)
                .env("QUARKUS_HTTP_HOST", "0.0.0.0").env("ENGRAM_ADMIN_KEY", null);
        Process p = exposed.launch();
        try {
            assertTrue(p.waitFor(90, TimeUnit.SECONDS), "Engram exits");
        } finally {
            p.destroyForcibly();
        }
        assertNotEquals(0, p.exitValue());
        String log = Files.readString(exposed.log);
        assertTrue(log.contains("nothing is configured to authenticate its callers")
                && log.contains("QUARKUS_HTTP_HOST=127.0.0.1"), log);

        try (EngramProcess keyed = EngramProcess.embedded("keyed", EngramProcess.freePort(), dir)
                .env("QUARKUS_HTTP_HOST", "0.0.0.0").env("ENGRAM_ADMIN_KEY", "eng_" + UUID.randomUUID()).start()) {
            assertEquals(200, status(keyed, "/q/health/live"), "with an operator key it may listen anywhere");
        }
    }

    @Test
    void aKilledPostgresIsStartedAgainAndLivenessGoesDownWhileItCannotBe() throws Exception {
        Path dir = emptied(EngramProcess.itDir("embedded-restart"));
        try (EngramProcess engram = EngramProcess.embedded("engram", EngramProcess.freePort(), dir)
                .env("ENGRAM_EMBEDDED_RESTART_GRACE", "2s").start()) {
            Path data = dir.resolve("engram-data/pg");
            String entry = "/v1/stores/kept/scopes/user/entries/note";
            assertTrue(send(engram, "PUT", entry, "{\"content\":\"before the kill\"}").statusCode() < 300);

            long first = postmaster(data);
            ProcessHandle.of(first).orElseThrow().destroyForcibly();
            assertTrue(waitFor(() -> postmaster(data) != first && status(engram, "/q/health/ready") == 200, 60),
                    "PostgreSQL was started again and Engram is ready");
            assertEquals(200, status(engram, "/q/health/live"));
            HttpResponse<String> read = send(engram, "GET", entry, null);
            assertEquals(200, read.statusCode(), read.body());
            assertTrue(read.body().contains("before the kill"), read.body());

            // Now PostgreSQL cannot start: a setting it refuses. Liveness falls after the grace, and comes back.
            Path auto = data.resolve("postgresql.auto.conf");
            String settings = Files.readString(auto);
            Files.writeString(auto, "engram_no_such_setting = 1\n", StandardOpenOption.APPEND);
            long second = postmaster(data);
            ProcessHandle.of(second).orElseThrow().destroyForcibly();
            assertTrue(waitFor(() -> status(engram, "/q/health/live") == 503, 60),
                    "liveness is DOWN while PostgreSQL cannot be started");
            assertEquals(503, status(engram, "/q/health/ready"));
            Files.writeString(auto, settings);
            assertTrue(waitFor(() -> status(engram, "/q/health/live") == 200
                    && status(engram, "/q/health/ready") == 200, 90), "both come back once it can be started");
            assertEquals(200, send(engram, "GET", entry, null).statusCode());
        }
    }

    /** The directory, with what an earlier run left in it deleted. */
    static Path emptied(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).map(Path::toFile)
                    .forEach(java.io.File::delete);
        }
        return dir;
    }

    /** The pid in the data directory's postmaster.pid, or -1. */
    static long postmaster(Path data) {
        try {
            return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        } catch (Exception e) {
            return -1;
        }
    }
}
