package dev.engram.faults;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One Engram replica: the packaged application in its own JVM, on a PostgreSQL it is given. */
final class EngramProcess implements AutoCloseable {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The operator key every replica is started with, and every request of these tests sends. */
    static final String ADMIN_KEY = "fault-tests-operator-key-0123456789abcdef";

    final String name;
    final int port;
    private final String jdbcUrl;
    private final Path log;
    private Process process;

    EngramProcess(String name, String jdbcUrl, int port, Path dir) {
        this.name = name;
        this.jdbcUrl = jdbcUrl;
        this.port = port;
        this.log = dir.resolve(name + ".log");
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
        String jar = System.getProperty("engram.jar", "target/quarkus-app/quarkus-run.jar");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar);
        pb.environment().put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
        pb.environment().put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        pb.environment().put("ENGRAM_ADMIN_KEY", ADMIN_KEY);
        pb.environment().put("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "2S");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
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

    /** The status of /q/health/ready, or -1 when the process does not answer. */
    int readyStatus() {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri("/q/health/ready")).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
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
        return lines.subList(Math.max(0, lines.size() - 40), lines.size());
    }
}
