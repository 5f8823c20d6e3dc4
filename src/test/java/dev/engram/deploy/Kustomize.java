package dev.engram.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization under {@code deployment/} with {@code kubectl kustomize}, as {@code kubectl apply -k} would;
 * fails (never skips) when kubectl is missing, naming what to install.
 */
final class Kustomize {

    /** The folder the manifests live in, from the project's root (the tests' working directory). */
    static final Path DEPLOYMENT = Path.of("deployment");

    /** Every kustomization a user applies, relative to {@link #DEPLOYMENT}. */
    static final java.util.List<String> OVERLAYS = java.util.List.of("base", "overlays/postgres", "overlays/dev",
            "overlays/knative");

    private static final Map<String, String> RENDERED = new ConcurrentHashMap<>();

    private Kustomize() {
    }

    /** The rendering of {@code dir} (relative to {@link #DEPLOYMENT}), computed once per test run. */
    static String render(String dir) {
        return RENDERED.computeIfAbsent(dir, d -> run("kubectl", DEPLOYMENT.resolve(d)));
    }

    /**
     * The rendering of the postgres overlay with the backup component added, as docs/deploy.md tells a user to: a
     * kustomization written under target/, since Kustomize refuses absolute paths to other kustomizations.
     */
    static String renderPostgresWithBackup() {
        return RENDERED.computeIfAbsent("postgres+backup", d -> {
            try {
                Path dir = Path.of("target", "deployment-test", "postgres-with-backup");
                Files.createDirectories(dir);
                Path root = dir.toAbsolutePath().relativize(DEPLOYMENT.toAbsolutePath());
                Files.writeString(dir.resolve("kustomization.yaml"), "resources:\n  - "
                        + root.resolve("overlays/postgres") + "\ncomponents:\n  - "
                        + root.resolve("overlays/postgres/backup") + "\n");
                return run("kubectl", dir);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** {@code kubectl kustomize dir}'s output, with {@code kubectl} the command to run. */
    static String run(String kubectl, Path dir) {
        Path errors;
        Process process;
        try {
            errors = Files.createTempFile("kustomize", ".err");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try {
            process = new ProcessBuilder(kubectl, "kustomize", dir.toString()).redirectError(errors.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("kubectl is not installed (or not on the PATH), and the deployment/ manifests are "
                    + "rendered and checked with `kubectl kustomize`. Install kubectl 1.32 or later (it includes "
                    + "Kustomize 5.5); .ci/run installs it when it is missing. (" + e.getMessage() + ")", e);
        }
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl kustomize " + dir + " did not finish in two minutes");
            }
            String err = Files.readString(errors);
            Files.deleteIfExists(errors);
            if (process.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "):\n"
                        + err);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
