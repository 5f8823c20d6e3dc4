package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The production artifact as the images build it ({@code ./mvnw -Dproduction package}, into target/production), built
 * once per test JVM for the integration tests that look at it or run it.
 */
public final class ProductionBuild {

    /** Where the production build lays the application out. */
    public static final Path APP = Path.of("target/production/quarkus-app");
    private static boolean built;

    private ProductionBuild() {
    }

    /** Builds it the first time it is asked for, and returns {@link #APP}. */
    public static synchronized Path app() throws Exception {
        if (!built) {
            Path log = EngramProcess.itDir("production").resolve("build.log");
            Process build = new ProcessBuilder("./mvnw", "-B", "-q", "-Dproduction", "package")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(build.waitFor(15, TimeUnit.MINUTES), "the production build took over 15 minutes");
            assertEquals(0, build.exitValue(), () -> "the production build failed; see " + log);
            built = true;
        }
        return APP;
    }
}
