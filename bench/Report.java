import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the measurements bench/run recorded into its table and RESULT line. Plain JDK, run as a single source file:
 * {@code java bench/Report.java target/bench/measurements.tsv}.
 *
 * <p>Each line of the file is tab-separated. A throughput measurement:
 * {@code m <workload> <side> <pair> <tps> <p50_ms> <p99_ms> <errors> <steal_percent>}; a start-up:
 * {@code s <label> <run> <ms> <rss_mb>}; anything about the machine: {@code i <key> <value>}; a figure of recall quality
 * (bench/quality): {@code q <key> <value>}, such as {@code q recall_at10 0.412}, put into the RESULT line as it is;
 * any other figure for the RESULT line: {@code r <key> <value>}, such as {@code r export_peak_heap_mb 41}.
 *
 * <p>A workload's ratio is computed per pair (Engram's throughput over its baseline's, measured one right after the
 * other), and the table shows the median of those ratios and their spread (max - min); throughput and latencies are
 * the medians over the pairs. A pair whose ratio lies more than {@link #OUTLIER} from the median is named below
 * the table, with the steal time measured during it, so an outlier is seen rather than averaged in.
 */
public class Report {

    /** How far from the median (as a fraction of it) a pair's ratio must lie to be called an outlier. */
    static final double OUTLIER = 0.15;

    /** One comparison: a workload's Engram side against one of its baselines, and its key in the RESULT line. */
    record Comparison(String workload, String label, String side, String baseline, String baselineLabel, String key) {
    }

    static final List<Comparison> COMPARISONS = List.of(
            new Comparison("writes", "writes, 100 stores, 16 clients", "engram", "sql", "plain SQL transaction",
                    "writes_ratio"),
            new Comparison("writes", "writes, 100 stores, 16 clients", "engram", "own_sql",
                    "engram_put straight from pgbench", "writes_own_sql_ratio"),
            new Comparison("writes_split", "writes, 100 stores, 16 clients, PostgreSQL on cores of its own", "engram",
                    "own_sql", "engram_put straight from pgbench, the same split", "writes_own_sql_split_ratio"),
            new Comparison("one_store", "writes, one store, 16 clients", "engram", "sql", "plain SQL transaction",
                    "one_store_ratio"),
            new Comparison("one_store", "writes, one store, 16 clients", "engram", "own_sql",
                    "engram_put straight from pgbench", "one_store_own_sql_ratio"),
            new Comparison("remember", "saving a memory, one store, 16 clients: against an entry write", "engram",
                    "entry", "an entry write of the same size, one store, 16 clients", "remember_ratio"),
            new Comparison("one_store_1", "writes, one store, 1 client", "engram", "sql", "plain SQL transaction",
                    "one_store_one_client_ratio"),
            new Comparison("render50", "render, 50 entries, 4 clients", "engram", "sql", "the render's query",
                    "render50_ratio"),
            new Comparison("render500", "render, 500 entries, 4 clients", "engram", "sql", "the render's query",
                    "render500_ratio"),
            new Comparison("search", "search, 10,000 of 109,000 rows, 4 clients", "engram", "sql",
                    "the search's query", "search_ratio"),
            new Comparison("http_floor", "the cheapest authenticated read (GET of one entry), 4 clients: against "
                    + "the framework's floor", "engram", "floor", "bench/baseline reading the same row, same HTTP stack "
                    + "and pool", "http_floor_ratio"),
            new Comparison("http_floor", "the cheapest authenticated read (GET of one entry), 4 clients: against "
                    + "a bare JSON route", "engram", "json", "bench/baseline's JSON route, no database", null),
            new Comparison("mcp", "memory_search tool call (one match of 50), 4 clients: MCP against REST", "mcp", "rest",
                    "the same call over REST (/tools/call)", "mcp_ratio"),
            new Comparison("recall", "hybrid recall, a new query each time, a bank of 10,000 among 100,000 memories "
                    + "(with vectors), 4 clients", "engram", "sql", "the seed ranking's candidate query",
                    "recall_ratio"),
            new Comparison("context", "the prompt of a 1,000-step context, 4 clients", "engram", "sql",
                    "reading its steps with one SQL query", "context_ratio"),
            new Comparison("context_append", "appending a step to a context of 500 steps and more, one store, "
                    + "16 clients: against an entry write", "engram", "entry",
                    "an entry write of the same size, one store, 16 clients", "context_append_ratio"),
            new Comparison("scale_write", "a create in a store 100 times larger (16 clients)", "large", "small",
                    "the same in the small store", "scale_write_ratio"),
            new Comparison("scale_read", "a point read in a store 100 times larger (4 clients)", "large", "small",
                    "the same in the small store", "scale_read_ratio"),
            new Comparison("scale_render", "a render of 50 entries in a store 100 times larger (4 clients)", "large",
                    "small", "the same in the small store", "scale_render_ratio"),
            new Comparison("scale_journal", "a journal page of 100 in a journal 100 times longer (4 clients)", "large",
                    "small", "the same in the short journal", "scale_journal_ratio"),
            new Comparison("scale_follow", "a live follower of a journal 100 times longer (a write, then its record "
                    + "at the follower)", "large", "small", "the same on the short journal", "scale_follow_ratio"),
            new Comparison("scale_recall", "recall in a bank of BENCH_SCALE_MEMORIES (1,000,000 unless set; 4 clients)", "large",
                    "small", "recall in a bank of 10,000", "scale_recall_ratio"),
            new Comparison("console_store", "the console's scope page, 50 of 500 entries with their Markdown "
                    + "rendered, 1 client", "console", "rest", "the API's page of the same 50 entries (JSON)",
                    "console_store_ratio"),
            new Comparison("console_journal", "the console's journal page, the newest 50 of 100,000 records with "
                    + "their diffs, 1 client", "console", "rest", "the API's page of the same 50 records (JSON)",
                    "console_journal_ratio"),
            new Comparison("memory_tool", "the memory tool's str_replace on a 4 KB file, 16 clients, a file each",
                    "engram", "entry", "an entry PATCH of the same 4 KB, 16 clients, an entry each",
                    "memory_tool_ratio"));

    record Measurement(double tps, double p50, double p99, long errors, double steal) {
    }

    record Start(double ms, double rss) {
    }

    public static void main(String[] args) throws IOException {
        Map<String, Map<String, Map<Integer, Measurement>>> runs = new LinkedHashMap<>();
        Map<String, List<Start>> starts = new LinkedHashMap<>();
        Map<String, String> info = new LinkedHashMap<>();
        Map<String, String> quality = new LinkedHashMap<>();
        Map<String, String> figures = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "m" -> runs.computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                        .computeIfAbsent(f[2], k -> new TreeMap<>())
                        .put(Integer.parseInt(f[3]), new Measurement(d(f[4]), d(f[5]), d(f[6]), Long.parseLong(f[7]),
                                d(f[8])));
                case "s" -> starts.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new Start(d(f[3]), d(f[4])));
                case "i" -> info.put(f[1], f.length > 2 ? f[2] : "");
                case "q" -> quality.put(f[1], f[2]);
                case "r" -> figures.put(f[1], f[2]);
                default -> throw new IllegalArgumentException("unknown line: " + line);
            }
        }
        StringBuilder out = new StringBuilder();
        StringBuilder notes = new StringBuilder();
        Map<String, String> result = new LinkedHashMap<>();
        out.append(info.getOrDefault("title", "Engram benchmark")).append("\n\n");
        if (!runs.isEmpty()) {
            out.append("| workload | engram req/s | p50 ms | p99 ms | baseline | tx/s | p50 ms | p99 ms "
                    + "| ratio (median of pairs) | spread (min-max) | pairs |\n");
            out.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        }
        for (Comparison c : COMPARISONS) {
            Map<String, Map<Integer, Measurement>> sides = runs.get(c.workload());
            if (sides == null || !sides.containsKey(c.side()) || !sides.containsKey(c.baseline())) {
                continue;
            }
            Map<Integer, Measurement> e = sides.get(c.side());
            Map<Integer, Measurement> b = sides.get(c.baseline());
            List<Integer> pairs = e.keySet().stream().filter(b::containsKey).toList();
            double[] ratios = pairs.stream().mapToDouble(p -> e.get(p).tps() / b.get(p).tps()).toArray();
            double median = median(ratios);
            double min = Arrays.stream(ratios).min().orElse(Double.NaN);
            double max = Arrays.stream(ratios).max().orElse(Double.NaN);
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.3f | %.3f | %s | %.1f | %.3f | %.3f | **%.2f** "
                            + "| %.2f-%.2f | %d |\n", c.label(), median(e, pairs, Measurement::tps),
                    median(e, pairs, Measurement::p50), median(e, pairs, Measurement::p99), c.baselineLabel(),
                    median(b, pairs, Measurement::tps), median(b, pairs, Measurement::p50),
                    median(b, pairs, Measurement::p99), median, min, max, pairs.size()));
            for (int i = 0; i < ratios.length; i++) {
                if (Math.abs(ratios[i] - median) > OUTLIER * median) {
                    Measurement me = e.get(pairs.get(i));
                    Measurement mb = b.get(pairs.get(i));
                    notes.append(String.format(Locale.ROOT, "- outlier: %s against %s, pair %d: ratio %.2f (median "
                                    + "%.2f); %.1f against %.1f per second; steal %.1f%% and %.1f%%\n", c.label(),
                            c.baselineLabel(), pairs.get(i), ratios[i], median, me.tps(), mb.tps(), me.steal(),
                            mb.steal()));
                }
            }
            if (c.key() != null) {
                result.put(c.key(), String.format(Locale.ROOT, "%.2f", median));
                result.put(c.key() + "_spread", String.format(Locale.ROOT, "%.2f", max - min));
            }
            if (c.workload().equals("http_floor") && c.baseline().equals("floor")) {
                // What a request costs Engram over the framework's floor: the floor's throughput over Engram's.
                double[] cost = Arrays.stream(ratios).map(r -> 1 / r).toArray();
                result.put("fixed_cost_ratio", String.format(Locale.ROOT, "%.2f", median(cost)));
                result.put("fixed_cost_ratio_spread", String.format(Locale.ROOT, "%.2f",
                        Arrays.stream(cost).max().orElse(Double.NaN) - Arrays.stream(cost).min().orElse(Double.NaN)));
            }
            if (c.workload().startsWith("console_")) {
                // Each page's server time, and the slower of the two as console_p50_ms.
                double p50 = median(e, pairs, Measurement::p50);
                result.put(c.workload() + "_p50_ms", String.format(Locale.ROOT, "%.2f", p50));
                double before = Double.parseDouble(result.getOrDefault("console_p50_ms", "0"));
                result.put("console_p50_ms", String.format(Locale.ROOT, "%.2f", Math.max(before, p50)));
            }
            if (c.workload().equals("recall")) {
                // The latency the issue sets a target for: Engram's p50 and p99 on the 10,000-of-100,000 bank.
                result.put("recall_p50_ms", String.format(Locale.ROOT, "%.2f", median(e, pairs, Measurement::p50)));
                result.put("recall_p99_ms", String.format(Locale.ROOT, "%.2f", median(e, pairs, Measurement::p99)));
            }
        }
        for (var w : runs.entrySet()) {
            for (var s : w.getValue().entrySet()) {
                long errors = s.getValue().values().stream().mapToLong(Measurement::errors).sum();
                if (errors > 0) {
                    notes.append("- errors: ").append(w.getKey()).append(' ').append(s.getKey()).append(": ")
                            .append(errors).append(" failed requests (the figures of that side are not comparable)\n");
                }
            }
        }
        if (!notes.isEmpty()) {
            out.append('\n').append(notes);
        }
        if (info.containsKey("conditional")) {
            out.append("\nConditional writes (GET, then PUT If-Match, retried on 412) on one entry, 16 clients: ")
                    .append(info.get("conditional")).append('\n');
        }
        if (!starts.isEmpty()) {
            out.append("\n| start-up to ready (from `java -jar`, running PostgreSQL) | median | spread (min-max) "
                    + "| runs | idle RSS, median |\n|---|---|---|---|---|\n");
            for (var s : starts.entrySet()) {
                double[] ms = s.getValue().stream().mapToDouble(Start::ms).toArray();
                double[] rss = s.getValue().stream().mapToDouble(Start::rss).toArray();
                out.append(String.format(Locale.ROOT, "| %s | %.0f ms | %.0f-%.0f ms | %s | %.0f MB |\n", s.getKey(),
                        median(ms), min(ms), max(ms), joined(ms), median(rss)));
                String label = s.getKey();
                String key = label.equals("Java 17, pod flags") ? "startup_ms"
                        : label.equals("Java 25 + AOT cache, pod flags") ? "startup_aot_ms"
                        : label.equals("Java 17, JVM defaults") ? "startup_jvm_defaults_ms"
                        : label.equals("Baseline app, Java 17, pod flags") ? "startup_baseline_ms"
                        : label.equals("Baseline app, Java 25 + AOT cache, pod flags") ? "startup_baseline_aot_ms"
                        : null;
                if (key != null) {
                    result.put(key, String.format(Locale.ROOT, "%.0f", median(ms)));
                    result.put(key + "_spread", String.format(Locale.ROOT, "%.0f", max(ms) - min(ms)));
                    String rssKey = key.replace("startup", "idle_rss").replace("_ms", "_mb");
                    result.put(rssKey, String.format(Locale.ROOT, "%.0f", median(rss)));
                }
            }
            startRatio(starts, "Java 17, pod flags", "Baseline app, Java 17, pod flags", "startup_ratio", out,
                    result);
            startRatio(starts, "Java 25 + AOT cache, pod flags", "Baseline app, Java 25 + AOT cache, pod flags",
                    "startup_aot_ratio", out, result);
        }
        if (!quality.isEmpty()) {
            out.append("\nRecall quality (bench/quality; without a suffix: hybrid ranking on Engram's own set, _dev: the "
                    + "LoCoMo development set):");
            quality.forEach((k, v) -> out.append(' ').append(k).append('=').append(v));
            out.append('\n');
            result.putAll(quality);
        }
        if (info.containsKey("export")) {
            out.append("\nExport of a store of 10,000 entries (GET .../export, a tar.gz): ").append(info.get("export"))
                    .append('\n');
        }
        result.putAll(figures);
        for (String key : List.of("scale", "scale index", "memory", "pod memory", "machine before", "machine after")) {
            if (info.containsKey(key)) {
                out.append('\n').append(key.substring(0, 1).toUpperCase(Locale.ROOT)).append(key.substring(1))
                        .append(": ").append(info.get(key)).append('\n');
            }
        }
        out.append("\nRESULT");
        result.forEach((k, v) -> out.append(' ').append(k).append('=').append(v));
        System.out.println(out);
    }

    /**
     * Engram's start against the baseline app's (bench/baseline), started in turn with it: the median of the
     * per-run ratios, so that each ratio compares two starts made a few seconds apart.
     */
    static void startRatio(Map<String, List<Start>> starts, String engram, String baseline, String key,
            StringBuilder out, Map<String, String> result) {
        List<Start> e = starts.get(engram);
        List<Start> b = starts.get(baseline);
        if (e == null || b == null || e.size() != b.size()) {
            return;
        }
        double[] ratios = new double[e.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = e.get(i).ms() / b.get(i).ms();
        }
        out.append(String.format(Locale.ROOT, "\n%s: %.2f times the baseline app's start (per-run ratios %.2f-%.2f)\n",
                engram, median(ratios), min(ratios), max(ratios)));
        result.put(key, String.format(Locale.ROOT, "%.2f", median(ratios)));
    }

    interface Field {
        double of(Measurement m);
    }

    static double median(Map<Integer, Measurement> side, List<Integer> pairs, Field field) {
        return median(pairs.stream().mapToDouble(p -> field.of(side.get(p))).toArray());
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    static String joined(double[] v) {
        StringBuilder s = new StringBuilder();
        for (double x : v) {
            s.append(s.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.0f", x));
        }
        return s.toString();
    }

    static double d(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
}
