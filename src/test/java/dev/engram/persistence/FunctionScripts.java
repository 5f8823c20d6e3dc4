package dev.engram.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The SQL functions the shipped migrations define, read from the scripts, and the list of repeatable ones. */
final class FunctionScripts {

    private static final Pattern FUNCTION = Pattern.compile("CREATE\\s+(OR\\s+REPLACE\\s+)?FUNCTION\\s+(\\w+)\\s*\\(",
            Pattern.CASE_INSENSITIVE);

    private FunctionScripts() {
    }

    /** The expected repeatable migrations, file name to the functions it defines, in order. */
    static Map<String, List<String>> expected() {
        Properties p = new Properties();
        try (InputStream in = resource("repeatable-migrations.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, List<String>> expected = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> expected.put(k, Arrays.asList(p.getProperty(k).split(","))));
        return expected;
    }

    /** The file names of the shipped migrations (the test classpath has them in a directory). */
    static List<String> files() {
        try {
            Path first = Path.of(FunctionScripts.class.getClassLoader().getResource(ShippedMigrations.FIRST).toURI());
            try (Stream<Path> files = Files.list(first.getParent())) {
                return files.map(f -> f.getFileName().toString()).sorted().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The script of migration {@code file} ({@code V1__x.sql}, {@code R__y.sql}). */
    static String script(String file) {
        try (InputStream in = resource(ShippedMigrations.DIRECTORY + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The functions {@code script} creates, in order, each with its body (what lies between its dollar quotes, as
     * PostgreSQL keeps it in {@code pg_proc.prosrc}); a function created twice keeps its last body.
     */
    static Map<String, String> functions(String script) {
        Map<String, String> functions = new LinkedHashMap<>();
        Matcher m = FUNCTION.matcher(script);
        while (m.find()) {
            int open = script.indexOf("$$", m.end());
            int close = script.indexOf("$$", open + 2);
            functions.put(m.group(2), script.substring(open + 2, close));
        }
        return functions;
    }

    /** Whether {@code script} creates a function without {@code OR REPLACE}. */
    static boolean createsWithoutReplace(String script) {
        Matcher m = FUNCTION.matcher(script);
        while (m.find()) {
            if (m.group(1) == null) {
                return true;
            }
        }
        return false;
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = FunctionScripts.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException("no resource " + name);
        }
        return in;
    }
}
