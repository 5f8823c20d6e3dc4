package dev.engram.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.delivery.Dockerfile.Instruction;
import dev.engram.delivery.Dockerfile.Stage;
import dev.engram.faults.ProductionBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dockerfile.jvm's COPY instructions against the production artifact as {@code -Dproduction package} lays it out
 * (target/production/quarkus-app): every path the image takes from the build stage's {@code target/} exists, a
 * directory where the COPY names one, a file where it names one. The image builds the aot-jar layout and this the
 * fast-jar one; both put the same four things at the top of quarkus-app, which is what the COPY names.
 */
class ContainerImagesIT {

    @Test
    void everyPathTheJvmImageTakesFromTheBuildExists() throws Exception {
        Path app = ProductionBuild.app();
        Dockerfile d = Dockerfile.read(ContainerImagesTest.JVM);
        String workdir = d.stage("build").last("WORKDIR").orElseThrow().text() + "/";
        List<String> taken = new ArrayList<>();
        for (Map.Entry<Stage, Instruction> copy : d.copies()) {
            if (!"build".equals(copy.getValue().flags().get("from"))) {
                continue;
            }
            for (String source : Dockerfile.sources(copy.getValue())) {
                assertTrue(source.startsWith(workdir + "target/production/quarkus-app/"), source);
                String relative = source.substring((workdir + "target/production/quarkus-app/").length());
                Path p = app.resolve(relative);
                assertTrue(Files.exists(p), source + " is not in the packaged application: " + p);
                assertEquals(relative.endsWith("/"), Files.isDirectory(p), source + " is copied as the wrong kind");
                taken.add(relative);
            }
        }
        assertEquals(List.of("lib/", "quarkus-run.jar", "quarkus/", "app/"), taken);
        try (var top = Files.list(app)) {
            List<String> left = top.map(p -> p.getFileName().toString() + (Files.isDirectory(p) ? "/" : ""))
                    .filter(n -> !taken.contains(n) && !n.equals("quarkus-app-dependencies.txt")).toList();
            assertEquals(List.of(), left, "the packaged application has more than the image takes");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
