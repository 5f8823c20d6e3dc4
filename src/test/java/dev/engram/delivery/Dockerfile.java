package dev.engram.delivery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile as its stages and instructions, for the tests that check what a docker build would trip on: lines
 * continued with a backslash are joined, comments dropped, and the ARG defaults declared before the first FROM are
 * substituted in FROM lines (as docker does). Only the shell form of arguments is parsed, which is all Engram's
 * Dockerfiles use.
 */
record Dockerfile(Path path, Map<String, String> args, List<Stage> stages) {

    /** One instruction: its keyword in upper case, its flags ({@code --from=build}) and its other words. */
    record Instruction(String keyword, Map<String, String> flags, List<String> words, String text) {
    }

    /** One stage: the image it starts from, its name (or null) and its instructions after FROM. */
    record Stage(String from, String name, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Optional<Instruction> last(String keyword) {
            List<Instruction> found = all(keyword);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
        }

        /** The value of the ENV {@code name} this stage sets, if it sets it. */
        Optional<String> env(String name) {
            Optional<String> value = Optional.empty();
            Pattern assignment = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S*)");
            for (Instruction i : all("ENV")) {
                Matcher m = assignment.matcher(i.text());
                while (m.find()) {
                    if (m.group(1).equals(name)) {
                        value = Optional.of(m.group(2).replaceAll("^\"|\"$", ""));
                    }
                }
            }
            return value;
        }
    }

    static Dockerfile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> joined = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.isEmpty())) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            joined.add(current.toString().strip());
            current.setLength(0);
        }
        Map<String, String> args = new LinkedHashMap<>();
        List<Stage> stages = new ArrayList<>();
        for (String line : joined) {
            String[] parts = line.split("\\s+", 2);
            String keyword = parts[0].toUpperCase();
            String rest = parts.length > 1 ? parts[1] : "";
            if (keyword.equals("ARG") && stages.isEmpty()) {
                String[] kv = rest.split("=", 2);
                args.put(kv[0], kv.length > 1 ? kv[1] : "");
            } else if (keyword.equals("FROM")) {
                String[] words = substitute(rest, args).split("\\s+");
                String name = words.length >= 3 && words[1].equalsIgnoreCase("AS") ? words[2] : null;
                stages.add(new Stage(words[0], name, new ArrayList<>()));
            } else if (!stages.isEmpty()) {
                Map<String, String> flags = new LinkedHashMap<>();
                List<String> words = new ArrayList<>();
                for (String word : rest.split("\\s+")) {
                    if (word.startsWith("--") && words.isEmpty() && !keyword.equals("RUN")) {
                        String[] kv = word.substring(2).split("=", 2);
                        flags.put(kv[0], kv.length > 1 ? kv[1] : "");
                    } else if (!word.isEmpty()) {
                        words.add(word);
                    }
                }
                stages.get(stages.size() - 1).instructions().add(new Instruction(keyword, flags, words, rest));
            }
        }
        return new Dockerfile(path, args, stages);
    }

    private static String substitute(String text, Map<String, String> args) {
        Matcher m = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$([A-Za-z_][A-Za-z0-9_]*)").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement(args.getOrDefault(name, m.group())));
        }
        return m.appendTail(out).toString();
    }

    Stage last() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst()
                .orElseThrow(() -> new AssertionError(path + " has no stage " + name));
    }

    /** Whether {@code image} names an earlier stage rather than an image of a registry. */
    boolean isStage(String image) {
        return stages.stream().anyMatch(s -> image.equals(s.name()));
    }

    /** The COPY instructions of every stage, each with the stage it is in. */
    List<Map.Entry<Stage, Instruction>> copies() {
        List<Map.Entry<Stage, Instruction>> found = new ArrayList<>();
        for (Stage s : stages) {
            s.all("COPY").forEach(i -> found.add(Map.entry(s, i)));
        }
        return found;
    }

    /** A COPY's sources: every word but the last, the destination. */
    static List<String> sources(Instruction copy) {
        return copy.words().subList(0, copy.words().size() - 1);
    }

    /** The options of a RUN as words, for checking a command line's flags. */
    static List<String> words(Instruction run) {
        return Arrays.asList(run.text().split("\\s+"));
    }
}
