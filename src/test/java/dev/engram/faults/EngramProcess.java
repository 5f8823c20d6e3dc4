package dev.engram.faults;

import dev.engram.ops.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Engram replica: the packaged application in its own JVM, on a PostgreSQL it is given (listening on
 * loopback, as Engram requires without credentials), or on its own embedded one.
 */
final class EngramProcess implements AutoCloseable {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The operator key every replica is started with, and every request of these tests sends. */
    static final String ADMIN_KEY = "fault-tests-operator-key-0123456789abcdef";

    final String name;
    final int port;
    final Path log;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Process process;
    private String jar = System.getProperty("engram.jar", "target/quarkus-app/quarkus-run.jar");

    EngramProcess(String name, EmbeddedPostgres.Server pg, int port, Path dir) {
        this(name, port, dir);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", pg.url());
        env.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        env.put("QUARKUS_DATASOURCE_PASSWORD", pg.password());
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
    }

    private EngramProcess(String name, int port, Path dir) {
        this.name = name;
        this.port = port;
        this.log = dir.resolve(name + ".log");
    }

    /** A replica with its own embedded PostgreSQL in {@code dir/<name>-data}, set as a user would set it. */
    static EngramProcess embedded(String name, int port, Path dir) {
        EngramProcess p = new EngramProcess(name, port, dir);
        p.env.put("ENGRAM_DATA_DIR", dir.resolve(name + "-data").toString());
        return p;
    }

    /** Sets an environment variable of the JVM to start; null leaves it unset, the operator key included. */
    EngramProcess env(String variable, String value) {
        env.put(variable, value);
        return this;
    }

    /** Runs another build of Engram than the one this build packaged (such as the production artifact). */
    EngramProcess jar(Path quarkusRunJar) {
        this.jar = quarkusRunJar.toString();
        return this;
    }

    static Path itDir(String test) throws IOException {
        Path dir = Path.of(System.getProperty("engram.it-dir", "target/it")).resolve(test);
        Files.createDirectories(dir);
        return dir;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    /** Starts the JVM and waits until it is ready. */
    EngramProcess start() throws Exception {
        launch();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited at start; see " + log);
            }
            if (readyStatus() == 200) {
                return this;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " was not ready in 60 s; see " + log);
    }

    /** A request to {@code uri} that carries the operator key. */
    static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + ADMIN_KEY);
    }

    /** Starts the JVM without waiting for it. */
    Process launch() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar);
        pb.environment().put("ENGRAM_ADMIN_KEY", ADMIN_KEY);
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        pb.environment().put("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "2S");
        // close() stops a replica with SIGTERM; the production delay of 5 s would only slow these tests down.
        // GracefulShutdownIT sets a delay of its own.
        pb.environment().put("QUARKUS_SHUTDOWN_DELAY", "0S");
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        return process;
    }

    /** The status of /q/health/ready, or -1 when the process does not answer. */
    int readyStatus() {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri("/q/health/ready")).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** SIGTERM: the graceful shutdown begins; returns at once. */
    void terminate() {
        process.destroy();
    }

    /** Waits up to {@code seconds} for the JVM to exit: its exit status, or -1 when it still runs. */
    int exitStatus(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    /** SIGKILL: no shutdown hook runs, in-flight requests are cut. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    List<String> logTail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return lines.subList(Math.max(0, lines.size() - 200), lines.size());
    }
}
