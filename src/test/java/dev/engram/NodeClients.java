package dev.engram;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Whether the tests that drive real Node clients (src/test/node) can run here: Node.js 20 or newer on the PATH and
 * the packages src/test/node/install.sh installed. Without them a test is skipped, so that {@code ./mvnw verify} runs
 * on a machine with only a JDK, unless {@code ENGRAM_REQUIRE_NODE=1} (.ci/run sets it): then it fails.
 */
public final class NodeClients {

    /** The oldest Node.js the clients were run with. */
    static final int OLDEST_MAJOR = 20;

    private NodeClients() {
    }

    /** Skips the calling test, or fails it under {@code ENGRAM_REQUIRE_NODE=1}, when {@code dir}'s clients cannot run. */
    public static void assumeInstalled(Path dir) {
        String missing = missing(dir);
        if (missing == null) {
            return;
        }
        if ("1".equals(System.getenv("ENGRAM_REQUIRE_NODE"))) {
            fail(missing + " (ENGRAM_REQUIRE_NODE=1 asks for the tests with real Node clients)");
        }
        assumeTrue(false, missing + ": skipped; install Node.js " + OLDEST_MAJOR + " or newer to run it");
    }

    /** What is missing, or null. */
    static String missing(Path dir) {
        String version = nodeVersion();
        if (version == null) {
            return "Node.js is not on the PATH";
        }
        int major = Integer.parseInt(version.replaceFirst("^v", "").split("\\.")[0]);
        if (major < OLDEST_MAJOR) {
            return "Node.js " + version + " is older than " + OLDEST_MAJOR;
        }
        if (!Files.isDirectory(dir.resolve("node_modules"))) {
            return "no " + dir + "/node_modules: src/test/node/install.sh did not run (./mvnw process-test-resources)";
        }
        return null;
    }

    private static String nodeVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("v\\d+\\..*") ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
