package dev.engram.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.delivery.Dockerfile.Instruction;
import dev.engram.delivery.Dockerfile.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What would break the container images that no docker build runs here to find out (this machine has no container
 * runtime): who the final stage runs as and what it exposes, the production build flags, pinned base images, the
 * files COPY takes from the build context, the .dockerignore, the AOT cache's stages and the image names Quarkus's
 * container-image extension would give. {@code ContainerImagesIT} checks the COPY sources against the packaged
 * application.
 */
class ContainerImagesTest {

    static final Path JVM = Path.of("src/main/docker/Dockerfile.jvm");
    static final Path NATIVE = Path.of("src/main/docker/Dockerfile.native");

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void theImageRunsAsANumericUserThatIsNotRoot(String file) {
        Dockerfile d = Dockerfile.read(Path.of("src/main/docker", file));
        String user = d.last().last("USER").orElseThrow(() -> new AssertionError(file + " sets no USER")).text();
        assertTrue(user.matches("\\d+(:\\d+)?"), file + " should run as a numeric uid (Kubernetes' runAsNonRoot "
                + "cannot check a name): " + user);
        assertTrue(Integer.parseInt(user.split(":")[0]) > 0, file + " runs as root");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void theImageExposesThePortEngramListensOn(String file) {
        Dockerfile d = Dockerfile.read(Path.of("src/main/docker", file));
        String port = NativeRegistrationsTest.applicationProperties().getProperty("quarkus.http.port");
        assertEquals(List.of(port), d.last().last("EXPOSE").orElseThrow().words());
        d.last().env("QUARKUS_HTTP_PORT").ifPresent(p -> assertEquals(port, p));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void theBuildIsAProductionBuild(String file) {
        Dockerfile d = Dockerfile.read(Path.of("src/main/docker", file));
        List<Instruction> builds = new ArrayList<>();
        d.stages().forEach(s -> s.all("RUN").stream().filter(r -> r.text().contains("./mvnw")).forEach(builds::add));
        assertEquals(1, builds.size(), file + " should build once: " + builds);
        List<String> words = Dockerfile.words(builds.get(0));
        assertTrue(words.contains("-Dproduction"), "without -Dproduction the image ships the embedded PostgreSQL");
        assertTrue(words.contains("-DskipTests") && words.contains("package"), words.toString());
        assertEquals(file.endsWith("native"), words.contains("-Pnative"), words.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void everyBaseImageIsPinned(String file) {
        Dockerfile d = Dockerfile.read(Path.of("src/main/docker", file));
        for (Stage s : d.stages()) {
            if (d.isStage(s.from())) {
                continue;
            }
            String image = s.from();
            assertFalse(image.contains("$"), file + ": an ARG without a default in FROM " + image);
            String tag = image.contains("@") ? "digest" : image.substring(image.lastIndexOf('/') + 1)
                    .replaceFirst("^[^:]*:?", "");
            assertFalse(tag.isEmpty() || tag.equals("latest"), file + ": FROM " + image + " is not pinned");
        }
    }

    @Test
    void theNativeImageIsCompiledByMandrelOnUbi9AndRunsOnUbi9() {
        Dockerfile d = Dockerfile.read(NATIVE);
        assertTrue(d.stages().get(0).from().startsWith("quay.io/quarkus/ubi9-quarkus-mandrel-builder-image:jdk-"),
                d.stages().get(0).from());
        // A binary compiled on UBI 9 needs UBI 9's glibc at run time.
        assertTrue(d.last().from().startsWith("quay.io/quarkus/ubi9-quarkus-micro-image:"), d.last().from());
        List<String> entry = d.last().last("ENTRYPOINT").orElseThrow().words();
        assertTrue(entry.toString().contains("-Dquarkus.http.host=0.0.0.0"), entry.toString());
    }

    @Test
    void theNativeRunnerIsTheOneTheNativeBuildNames() throws Exception {
        // Quarkus names the executable <artifactId>-<version>-runner; the COPY finds it by a glob.
        Document pom = pom();
        String runner = text(pom.getDocumentElement(), "artifactId") + "-" + text(pom.getDocumentElement(), "version")
                + "-runner";
        Dockerfile d = Dockerfile.read(NATIVE);
        Instruction copy = d.last().all("COPY").stream().filter(c -> "build".equals(c.flags().get("from")))
                .findFirst().orElseThrow();
        String source = Dockerfile.sources(copy).get(0);
        String workdir = d.stage("build").last("WORKDIR").orElseThrow().text();
        assertTrue(source.startsWith(workdir + "/target/"), source);
        String glob = source.substring(source.lastIndexOf('/') + 1);
        assertTrue(NativeRegistrationsTest.glob(glob).matcher(runner).matches(), glob + " does not match " + runner);
        assertEquals(List.of("/work/engram", "-Dquarkus.http.host=0.0.0.0"),
                d.last().last("ENTRYPOINT").orElseThrow().words().stream().map(w -> w.replaceAll("[\\[\\]\",]", ""))
                        .toList());
    }

    @Test
    void theAotCacheIsUsedByTheJvmAndJarsThatWroteIt() {
        Dockerfile d = Dockerfile.read(JVM);
        // training and the image both start from runtime: the same JRE and jar layers, so the cache applies.
        assertEquals("runtime", d.stage("training").from());
        assertEquals("runtime", d.last().from());
        assertTrue(d.stage("training").all("RUN").stream().anyMatch(r -> r.text().contains("aot-training.sh")));
        Instruction cache = d.last().all("COPY").stream().filter(c -> "training".equals(c.flags().get("from")))
                .findFirst().orElseThrow(() -> new AssertionError("the image takes no AOT cache from training"));
        String home = d.stage("runtime").env("ENGRAM_HOME").orElseThrow();
        assertEquals(List.of(home + "/app.aot"), Dockerfile.sources(cache));
        assertEquals(home, d.stage("runtime").last("WORKDIR").orElseThrow().text());
        // aot-jar: the classes on the JDK's class path, which an AOT cache keeps (fast-jar's class loader it skips)
        assertTrue(d.stage("build").all("RUN").get(0).text().contains("-Dquarkus.package.jar.type=aot-jar"));
    }

    @Test
    void theJvmEntrypointHonoursJavaOpts() throws IOException {
        Dockerfile d = Dockerfile.read(JVM);
        String opts = d.stage("runtime").env("JAVA_OPTS").orElseThrow();
        for (String option : List.of("-XX:MaxRAMPercentage=", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UnlockExperimentalVMOptions -XX:TrimNativeHeapInterval=")) {
            assertTrue(opts.contains(option), opts);
        }
        assertEquals("2", d.stage("runtime").env("MALLOC_ARENA_MAX").orElseThrow());
        assertEquals(List.of("[\"/deployments/engram-jvm.sh\"]"), d.last().last("ENTRYPOINT").orElseThrow().words());
        String script = Files.readString(Path.of("src/main/docker/engram-jvm.sh"));
        for (String part : List.of("exec java", "${JAVA_OPTS:-}", "${JAVA_OPTS_APPEND:-}",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-XX:AOTCache=app.aot",
                "-jar quarkus-run.jar")) {
            assertTrue(script.contains(part), "engram-jvm.sh lacks " + part);
        }
        assertTrue(Files.isExecutable(Path.of("src/main/docker/engram-jvm.sh")));
        assertTrue(Files.isExecutable(Path.of("src/main/docker/aot-training.sh")));
        assertTrue(Files.isExecutable(Path.of("src/main/docker/train-aot.sh")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native"})
    void everyFileTakenFromTheContextExistsAndIsNotIgnored(String file) throws IOException {
        Dockerfile d = Dockerfile.read(Path.of("src/main/docker", file));
        List<Pattern[]> ignore = dockerignore();
        for (Map.Entry<Stage, Instruction> copy : d.copies()) {
            if (copy.getValue().flags().containsKey("from")) {
                continue;
            }
            for (String source : Dockerfile.sources(copy.getValue())) {
                Path p = Path.of(source);
                assertTrue(Files.exists(p), file + " copies " + source + ", which the project does not have");
                assertFalse(ignored(ignore, p.normalize().toString()), source + " is left out by .dockerignore");
            }
        }
    }

    @Test
    void theContextLeavesOutTheOutputsAndLocalState() throws IOException {
        List<Pattern[]> ignore = dockerignore();
        for (String path : List.of("target/quarkus-app/quarkus-run.jar", ".engram/admin-key", ".git/HEAD",
                "node_modules/x/package.json", "web/node_modules/x/index.js", "src/test/java/X.java")) {
            assertTrue(ignored(ignore, path), path + " should be left out of the build context");
        }
        for (String path : List.of("pom.xml", "mvnw", ".mvn/wrapper/maven-wrapper.properties",
                "src/main/java/dev/engram/nativeimage/JsonTypes.java", "src/main/docker/engram-jvm.sh")) {
            assertFalse(ignored(ignore, path), path + " should be in the build context");
        }
    }

    @Test
    void quarkusWouldNameTheImagesAsTheDeploymentDoes() throws Exception {
        Properties config = NativeRegistrationsTest.applicationProperties();
        String prefix = config.getProperty("quarkus.container-image.registry") + "/"
                + config.getProperty("quarkus.container-image.group") + "/";
        String jvmName = config.getProperty("quarkus.container-image.name",
                config.getProperty("quarkus.application.name"));
        assertEquals("ghcr.io/engram-dev/engram", prefix + jvmName);
        Element nativeProfile = profile(pom(), "native");
        assertEquals("ghcr.io/engram-dev/engram-native",
                prefix + text(nativeProfile, "quarkus.container-image.name"));
        assertEquals("${quarkus.application.version}", config.getProperty("quarkus.container-image.tag"));
        assertEquals(JVM.toString(), config.getProperty("quarkus.docker.dockerfile-jvm-path"));
        assertEquals(NATIVE.toString(), config.getProperty("quarkus.docker.dockerfile-native-path"));
    }

    @Test
    void theNativeProfileBuildsOnlyTheExecutable() throws Exception {
        Element profile = profile(pom(), "native");
        assertEquals("native", text(profile, "name"), "activated by -Dnative as well as -Pnative");
        assertEquals("true", text(profile, "quarkus.native.enabled"));
        assertEquals("false", text(profile, "quarkus.package.jar.enabled"));
    }

    @Test
    void theIgnoreMatcherFollowsDockersRules() {
        List<Pattern[]> rules = List.of(rule("target/"), rule("**/node_modules"), rule("*.log"), rule("!keep.log"));
        assertTrue(ignored(rules, "target/a/b.jar"));
        assertTrue(ignored(rules, "node_modules"));
        assertTrue(ignored(rules, "a/b/node_modules/c"));
        assertTrue(ignored(rules, "x.log"));
        assertFalse(ignored(rules, "keep.log"));
        assertFalse(ignored(rules, "src/x.log"));
        assertFalse(ignored(rules, "targets"));
    }

    /** .dockerignore's rules, each as {pattern, null} or {null, pattern} for an exception ({@code !}). */
    static List<Pattern[]> dockerignore() throws IOException {
        return Files.readAllLines(Path.of(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).map(ContainerImagesTest::rule).toList();
    }

    private static Pattern[] rule(String line) {
        boolean exception = line.startsWith("!");
        String pattern = (exception ? line.substring(1) : line).replaceAll("^/+|/+$", "");
        StringBuilder regex = new StringBuilder();
        String[] segments = pattern.split("/");
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals("**")) {
                regex.append(i == segments.length - 1 ? ".*" : "(.*/)?");
                continue;
            }
            regex.append(NativeRegistrationsTest.glob(segment).pattern());
            if (i < segments.length - 1) {
                regex.append("/");
            }
        }
        Pattern p = Pattern.compile(regex.toString());
        return exception ? new Pattern[] {null, p} : new Pattern[] {p, null};
    }

    /** Docker's rule: the last rule that matches the path or one of its parent directories decides. */
    static boolean ignored(List<Pattern[]> rules, String path) {
        boolean ignored = false;
        for (Pattern[] rule : rules) {
            Pattern p = rule[0] != null ? rule[0] : rule[1];
            String prefix = path;
            boolean matches = false;
            while (!matches && !prefix.isEmpty()) {
                matches = p.matcher(prefix).matches();
                int slash = prefix.lastIndexOf('/');
                prefix = slash < 0 ? "" : prefix.substring(0, slash);
            }
            if (matches) {
                ignored = rule[0] != null;
            }
        }
        return ignored;
    }

    static Document pom() throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
    }

    private static Element profile(Document pom, String id) {
        NodeList profiles = pom.getElementsByTagName("profile");
        for (int i = 0; i < profiles.getLength(); i++) {
            Element p = (Element) profiles.item(i);
            if (id.equals(text(p, "id"))) {
                return p;
            }
        }
        throw new AssertionError("pom.xml has no profile " + id);
    }

    /** The text of the first element named {@code tag} under {@code parent} (children before deeper ones). */
    private static String text(Element parent, String tag) {
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                return e.getTextContent().strip();
            }
        }
        NodeList deeper = parent.getElementsByTagName(tag);
        if (deeper.getLength() == 0) {
            throw new AssertionError("no <" + tag + "> under <" + parent.getTagName() + ">");
        }
        return deeper.item(0).getTextContent().strip();
    }
}
