package dev.engram.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

/** A real rendering broken the way people break manifests, by replacing text: the material of the checks' tests. */
final class Broken {

    private Broken() {
    }

    /** The rendering of {@code dir} with every occurrence of {@code text} replaced, parsed. */
    static Manifests render(String dir, String text, String replacement) {
        String yaml = Kustomize.render(dir);
        assertTrue(yaml.contains(text), "The rendering of " + dir + " no longer contains the text this test breaks:\n"
                + text);
        return Manifests.parse(yaml.replace(text, replacement));
    }

    /**
     * Asserts that {@code check} finds nothing wrong with the rendering of {@code dir} as it is, and that with
     * {@code text} replaced it reports exactly one problem containing {@code expected}; returns that problem.
     */
    static String assertOneProblem(Function<Manifests, List<String>> check, String dir, String text,
            String replacement, String expected) {
        assertEquals(List.of(), check.apply(Manifests.of(dir)), "the rendering as it is");
        List<String> problems = check.apply(render(dir, text, replacement));
        assertEquals(1, problems.size(), "one problem, not " + problems);
        assertTrue(problems.get(0).contains(expected), problems.get(0) + "\nshould say: " + expected);
        return problems.get(0);
    }

    /**
     * As {@link #assertOneProblem}, for a break that shows in several places (two variables naming one Secret): at
     * least one problem, each containing {@code expected}.
     */
    static void assertProblems(Function<Manifests, List<String>> check, String dir, String text, String replacement,
            String expected) {
        assertEquals(List.of(), check.apply(Manifests.of(dir)), "the rendering as it is");
        List<String> problems = check.apply(render(dir, text, replacement));
        assertTrue(!problems.isEmpty() && problems.stream().allMatch(p -> p.contains(expected)),
                problems + "\nshould each say: " + expected);
    }
}
