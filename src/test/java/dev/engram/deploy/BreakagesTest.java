package dev.engram.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each check fails each way of breaking the manifests it guards: the breaks are the table in
 * {@code src/test/resources/deploy/breakages.txt}, one test a block, each on a real rendering.
 */
class BreakagesTest {

    /** The checks as the table names them, set up with the numbers the table's messages cite. */
    static final Map<String, Function<Manifests, List<String>>> CHECKS = Map.ofEntries(
            Map.entry("UnknownFieldsCheck", new UnknownFieldsCheck()::problems),
            Map.entry("ProbeCheck", new ProbeCheck(8080)::problems),
            Map.entry("EnvCheck", new EnvCheck(KnownSettings.all())::problems),
            Map.entry("ReferenceCheck", new ReferenceCheck(Set.of("engram"))::problems),
            Map.entry("ImageCheck", new ImageCheck(AppProperties.version())::problems),
            Map.entry("ResourcesCheck", new ResourcesCheck()::problems),
            Map.entry("SelectorCheck", new SelectorCheck()::problems),
            Map.entry("NetworkPolicyCheck", new NetworkPolicyCheck(8080)::problems),
            Map.entry("SecurityCheck", new SecurityCheck()::problems),
            // The shutdown delay (5 s) and timeout (20 s) Engram is configured with.
            Map.entry("GracefulRolloutCheck", new GracefulRolloutCheck(Duration.ofSeconds(25))::problems),
            Map.entry("ConnectionBudgetCheck", new ConnectionBudgetCheck(32)::problems));

    /** One block of the table. */
    record Breakage(String check, String dir, String text, String replacement, String says, boolean each) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("breakages")
    void theCheckReportsTheBreak(Breakage b) {
        Function<Manifests, List<String>> check = CHECKS.get(b.check());
        if (b.each()) {
            Broken.assertProblems(check, b.dir(), b.text(), b.replacement(), b.says());
        } else {
            Broken.assertOneProblem(check, b.dir(), b.text(), b.replacement(), b.says());
        }
    }

    static Stream<Named<Breakage>> breakages() throws IOException {
        List<Named<Breakage>> all = new ArrayList<>();
        for (Map<String, String> block : blocks(read())) {
            String check = block.get("check");
            if (!CHECKS.containsKey(check)) {
                throw new IllegalStateException("breakages.txt names no known check: " + block);
            }
            boolean each = block.containsKey("says each");
            Breakage b = new Breakage(check, required(block, "in"), required(block, "replace"),
                    required(block, "with"), required(block, each ? "says each" : "says"), each);
            all.add(Named.of(check + ": " + required(block, "case"), b));
        }
        return all.stream();
    }

    private static String read() throws IOException {
        try (var in = BreakagesTest.class.getResourceAsStream("/deploy/breakages.txt")) {
            if (in == null) {
                throw new IllegalStateException("src/test/resources/deploy/breakages.txt is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The table's blocks, each a map of its keys to their values, with {@code \n} read as a line break. */
    static List<Map<String, String>> blocks(String text) {
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> block = new LinkedHashMap<>();
        for (String line : (text + "\n\n").split("\n", -1)) {
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isBlank()) {
                if (!block.isEmpty()) {
                    blocks.add(block);
                    block = new LinkedHashMap<>();
                }
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw new IllegalStateException("breakages.txt: not \"key: value\": " + line);
            }
            String value = line.length() > colon + 1 ? line.substring(colon + 2) : "";
            block.put(line.substring(0, colon), value.replace("\\n", "\n"));
        }
        return blocks;
    }

    private static String required(Map<String, String> block, String key) {
        String value = block.get(key);
        if (value == null) {
            throw new IllegalStateException("breakages.txt: a block without \"" + key + ":\": " + block);
        }
        return value;
    }
}
