import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Engram's recall quality over HTTP. Plain JDK 17, one source file:
 * {@code java bench/Quality.java URL TOKEN [options]}.
 *
 * <p>Each dataset (LoCoMo's shape: conversations of dated sessions of turns, and questions naming the dia_ids that
 * answer them) goes into a fresh store, one bank per conversation, every turn one memory "Speaker: text" created at
 * its session's date, each conversation's turns in order. Once the store's recall status ({@code GET .../recall})
 * shows none pending, or every memory shows its {@code embedding} (a server with neither is not waited for), every
 * question of categories 1-4 is asked with each ranking (top_k 10, the conversation's bank), and for each dataset and
 * ranking it reports evidence recall@1, @5 and @10 (the fraction of a question's evidence in the top k, averaged over
 * the questions), MRR (1 / rank of the first evidence in the top 10, else 0), the questions refused (not 200; they
 * count as finding nothing) and the search latency. {@code --lag S} also saves memories at 100 a second for S
 * seconds and reports the lag from a save to its vector: from each memory's {@code embedding.at} and the save's
 * acknowledgement when memories show it, else from the store's recall status.
 *
 * <p>Options: {@code --dev PATH} the LoCoMo development set (default ../shared/eval/locomo-dev/locomo-dev.json when
 * it exists), {@code --own PATH} Engram's own set (default target/quality/recallset.json, from bench/RecallSet.java),
 * {@code --no-dev}, {@code --no-own}, {@code --rankings seed,lexical,semantic,hybrid}, {@code --top-k 10},
 * {@code --threads 8} (saves), {@code --search-threads 1}, {@code --embed-wait 900} (seconds at most to wait for
 * embeddings), {@code --field-grace 15} (seconds to wait when no memory shows an embedding field at all),
 * {@code --conversations N} (the first N of each dataset), {@code --lag [SECONDS]} (default 20), {@code --no-recall}.
 * Last it prints lines {@code quality KEY VALUE}.
 */
public class Quality {

    static final List<String> RANKINGS = List.of("seed", "lexical", "semantic", "hybrid");
    static final Pattern LOCOMO_TIME = Pattern.compile(
            "(\\d{1,2}):(\\d{2})\\s*([ap]m)\\s+on\\s+(\\d{1,2})\\s+([A-Za-z]+),?\\s+(\\d{4})", Pattern.CASE_INSENSITIVE);
    static final Pattern DIA_ID = Pattern.compile("D:?(\\d+):(\\d+)");

    static HttpClient http;
    static String url;
    static String token;
    static final Map<String, String> results = new LinkedHashMap<>();

    // ---- the data --------------------------------------------------------------------------------------------

    record Turn(String memoryId, String content, Instant createdAt) {
    }

    record Question(String text, Set<String> evidence, String kind, String wording) {
    }

    record Conversation(String bank, List<Turn> turns, List<Question> questions) {
    }

    /** A dataset as loaded, with what did not fit: evidence ids repaired, evidence ids matching no turn. */
    record Dataset(String name, List<Conversation> conversations, int repaired, int unmatched,
            int withoutEvidence, List<String> unmatchedSamples) {

        int questions() {
            return conversations.stream().mapToInt(c -> c.questions().size()).sum();
        }

        int turns() {
            return conversations.stream().mapToInt(c -> c.turns().size()).sum();
        }
    }

    /** Reads LoCoMo's shape; {@code limit} conversations at most. */
    @SuppressWarnings("unchecked")
    static Dataset load(String name, Path file, int limit) throws IOException {
        List<Object> raw = (List<Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        List<Conversation> conversations = new ArrayList<>();
        int repaired = 0;
        int unmatched = 0;
        int withoutEvidence = 0;
        List<String> samples = new ArrayList<>();
        for (int c = 0; c < raw.size() && c < limit; c++) {
            Map<String, Object> conv = (Map<String, Object>) raw.get(c);
            Map<String, Object> sessions = (Map<String, Object>) conv.get("conversation");
            String sample = String.valueOf(conv.getOrDefault("sample_id", name + "-" + c)).replaceAll(
                    "[^A-Za-z0-9._-]", "-");
            String bank = (name.equals("dev") ? "locomo" : name) + "-" + c;
            List<Turn> turns = new ArrayList<>();
            Map<String, String> byDiaId = new HashMap<>();
            for (int s = 1; sessions.containsKey("session_" + s); s++) {
                Instant at = locomoTime(String.valueOf(sessions.get("session_" + s + "_date_time")));
                for (Object t : (List<Object>) sessions.get("session_" + s)) {
                    Map<String, Object> turn = (Map<String, Object>) t;
                    String dia = String.valueOf(turn.get("dia_id"));
                    String id = sample + "-" + dia;
                    byDiaId.put(dia, id);
                    turns.add(new Turn(id, turn.get("speaker") + ": " + turn.get("text"), at));
                }
            }
            List<Question> questions = new ArrayList<>();
            for (Object q : (List<Object>) conv.get("qa")) {
                Map<String, Object> qa = (Map<String, Object>) q;
                int category = ((Number) qa.getOrDefault("category", 4)).intValue();
                if (category < 1 || category > 4) {
                    continue;
                }
                Set<String> evidence = new HashSet<>();
                for (Object e : (List<Object>) qa.getOrDefault("evidence", List.of())) {
                    String given = String.valueOf(e);
                    if (byDiaId.containsKey(given)) {
                        evidence.add(byDiaId.get(given));
                        continue;
                    }
                    // "D8:6; D9:17" (two in one), "D:11:26" (a stray colon): repaired when each part names a turn.
                    boolean any = false;
                    for (String part : given.split("[;,\\s]+")) {
                        Matcher m = DIA_ID.matcher(part.strip());
                        String id = m.matches() ? byDiaId.get("D" + m.group(1) + ":" + m.group(2)) : null;
                        if (id != null) {
                            evidence.add(id);
                            any = true;
                        }
                    }
                    if (any) {
                        repaired++;
                    } else {
                        unmatched++;
                        if (samples.size() < 5) {
                            samples.add(bank + " \"" + given + "\"");
                        }
                    }
                }
                if (evidence.isEmpty()) {
                    withoutEvidence++;
                    continue;
                }
                questions.add(new Question(String.valueOf(qa.get("question")), evidence,
                        String.valueOf(qa.getOrDefault("kind", "category " + category)),
                        (String) qa.get("wording")));
            }
            conversations.add(new Conversation(bank, turns, questions));
        }
        return new Dataset(name, conversations, repaired, unmatched, withoutEvidence, samples);
    }

    /** "1:56 pm on 8 May, 2023" as UTC. */
    static Instant locomoTime(String s) {
        Matcher m = LOCOMO_TIME.matcher(s);
        if (!m.find()) {
            throw new IllegalArgumentException("not a LoCoMo session time: " + s);
        }
        int hour = Integer.parseInt(m.group(1)) % 12 + (m.group(3).equalsIgnoreCase("pm") ? 12 : 0);
        String month = m.group(5).substring(0, 3).toLowerCase(Locale.ROOT);
        int mon = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
                .indexOf(month) + 1;
        return LocalDateTime.of(Integer.parseInt(m.group(6)), mon, Integer.parseInt(m.group(4)), hour,
                Integer.parseInt(m.group(2))).toInstant(ZoneOffset.UTC);
    }

    // ---- HTTP ------------------------------------------------------------------------------------------------

    record Answer(int status, String body, long nanos) {
    }

    /** One call, retried (up to 8 times) on 429 and 503 after their Retry-After or a short pause. */
    static Answer call(String method, String path, String body) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + token);
            if (body != null) {
                b.header("Content-Type", "application/json").method(method,
                        HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            long t0 = System.nanoTime();
            HttpResponse<String> r;
            try {
                r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                if (attempt >= 3) {
                    return new Answer(0, e.toString(), System.nanoTime() - t0);
                }
                Thread.sleep(500);
                continue;
            }
            long nanos = System.nanoTime() - t0;
            if ((r.statusCode() == 429 || r.statusCode() == 503) && attempt < 8) {
                double wait = r.headers().firstValue("Retry-After").map(Double::parseDouble).orElse(0.5);
                Thread.sleep((long) (Math.min(wait, 10) * 1000) + 50);
                continue;
            }
            return new Answer(r.statusCode(), r.body(), nanos);
        }
    }

    // ---- loading and embedding -------------------------------------------------------------------------------

    /**
     * Saves every turn into {@code store}, the conversations in parallel ({@code threads} at most) and each one's
     * turns in order: the order of saving breaks ties of created_at (a session's turns share its time), and the
     * hybrid ranking reads a memory's neighbours in that order. Answers each memory's acknowledgement time.
     */
    static Map<String, Instant> save(String store, Dataset d, int threads) throws Exception {
        Map<String, Instant> acked = new ConcurrentHashMap<>();
        AtomicInteger failed = new AtomicInteger();
        List<String> failures = new ArrayList<>();
        threads = Math.min(threads, d.conversations().size());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Conversation c : d.conversations()) {
            done.add(pool.submit(() -> {
                for (Turn t : c.turns()) {
                    String body = "{\"id\": " + Json.str(t.memoryId()) + ", \"bank\": {\"type\": \"user\", \"id\": "
                            + Json.str(c.bank()) + "}, \"content\": " + Json.str(t.content()) + ", \"created_at\": "
                            + Json.str(t.createdAt().toString()) + "}";
                    Answer a = call("POST", "/v1/stores/" + store + "/memories", body);
                    if (a.status() == 201 || a.status() == 200) {
                        acked.put(t.memoryId(), Instant.now());
                    } else if (failed.incrementAndGet() <= 3) {
                        synchronized (failures) {
                            failures.add(a.status() + " " + a.body().substring(0, Math.min(300, a.body().length())));
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        double secs = (System.nanoTime() - t0) / 1e9;
        say("%s: saved %d of %d memories into %s in %.1f s (%.0f a second, %d threads)%s", d.name(), acked.size(),
                d.turns(), store, secs, acked.size() / secs, threads, failed.get() == 0 ? ""
                        : "; " + failed.get() + " refused, e.g. " + failures);
        return acked;
    }

    /**
     * How a wait for embeddings ended: each memory's {@code embedding.at} when the memories show it, else the store's
     * {@code GET .../recall} status at the end (null on a server that has neither); {@code drained} the seconds it
     * took.
     */
    record Embedded(Map<String, Instant> at, Map<String, Object> status, double drained) {
    }

    /**
     * Waits until every memory of {@code ids} is embedded, for {@code capSecs} at most: by the memories' own
     * {@code embedding} field when the memory list shows it, else by the store's recall status ({@code pending} 0),
     * else (a server from before embeddings) for {@code graceSecs} in case the field appears.
     */
    @SuppressWarnings("unchecked")
    static Embedded awaitEmbeddings(String store, Set<String> ids, int capSecs, int graceSecs) throws Exception {
        long t0 = System.nanoTime();
        while (true) {
            Map<String, Instant> at = new HashMap<>();
            String model = scan(store, ids, at);
            double waited = (System.nanoTime() - t0) / 1e9;
            Map<String, Object> status = null;
            if (model == null) {
                Answer a = call("GET", "/v1/stores/" + store + "/recall", null);
                status = a.status() == 200 ? (Map<String, Object>) Json.parse(a.body()) : null;
            }
            if (model != null && at.size() >= ids.size()) {
                say("  all %d memories embedded after %.1f s (%s)", ids.size(), waited, model);
                return new Embedded(at, null, waited);
            }
            if (status != null && ((Number) status.get("pending")).longValue() == 0) {
                long memories = ((Number) status.get("memories")).longValue();
                long embedded = ((Number) status.get("embedded")).longValue();
                say("  %d of %d memories embedded, none pending, after %.1f s (%s, %s dimensions)%s", embedded,
                        memories, waited, status.get("model"), num(status.get("dimensions")),
                        embedded < memories ? ": " + (memories - embedded) + " NOT embedded" : "");
                return new Embedded(at, status, waited);
            }
            if (model == null && status == null && waited >= graceSecs) {
                say("  no memory shows an embedding and the store has no recall status after %.0f s: this server "
                        + "does not embed; not waiting", waited);
                return new Embedded(at, null, waited);
            }
            if (waited >= capSecs) {
                say("  not every memory embedded after %.0f s (the cap): %s; going on without them", waited,
                        status != null ? status.get("pending") + " pending of " + status.get("memories")
                                : (ids.size() - at.size()) + " of " + ids.size() + " not embedded");
                return new Embedded(at, status, waited);
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Reads the store's memory list and puts the embedded ones of {@code ids} into {@code at}; answers the model
     * when any memory shows an {@code embedding} member, else null.
     */
    @SuppressWarnings("unchecked")
    static String scan(String store, Set<String> ids, Map<String, Instant> at) throws InterruptedException {
        String model = null;
        for (int offset = 0; ; ) {
            Answer a = call("GET", "/v1/stores/" + store + "/memories?limit=1000&offset=" + offset, null);
            if (a.status() != 200) {
                throw new IllegalStateException("listing memories answered " + a.status() + ": " + a.body());
            }
            Map<String, Object> page = (Map<String, Object>) Json.parse(a.body());
            List<Object> memories = (List<Object>) page.get("memories");
            for (Object o : memories) {
                Map<String, Object> m = (Map<String, Object>) o;
                if (m.containsKey("embedding") && model == null) {
                    model = "a model not named yet";
                }
                String id = (String) m.get("id");
                if (m.get("embedding") instanceof Map<?, ?> e && ids.contains(id) && e.get("at") != null) {
                    at.put(id, instant((String) e.get("at")));
                    model = e.get("model") + ", " + num(e.get("dimensions")) + " dimensions";
                }
            }
            offset += memories.size();
            Number total = (Number) page.get("total");
            if (memories.isEmpty() || total == null || offset >= total.longValue()) {
                return model;
            }
        }
    }

    static String num(Object n) {
        return n instanceof Number x ? String.format(Locale.ROOT, "%.0f", x.doubleValue()) : String.valueOf(n);
    }

    static Instant instant(String s) {
        try {
            return Instant.parse(s);
        } catch (RuntimeException e) {
            return OffsetDateTime.parse(s).toInstant();
        }
    }

    // ---- asking ----------------------------------------------------------------------------------------------

    /** What one ranking scored on one dataset; {@code byGroup} recall@10 sums by wording or kind. */
    static final class Score {
        int questions;
        int refused;
        double r1;
        double r5;
        double r10;
        double mrr;
        final List<Double> millis = new ArrayList<>();
        final Map<Integer, Integer> refusals = new TreeMap<>();
        String firstRefusal;
        final Map<String, double[]> byGroup = new TreeMap<>();

        synchronized void add(Question q, List<String> found, Answer a) {
            questions++;
            millis.add(a.nanos() / 1e6);
            double[] g = byGroup.computeIfAbsent(q.wording() != null ? q.wording() : q.kind(), k -> new double[2]);
            g[1]++;
            if (a.status() != 200) {
                refused++;
                refusals.merge(a.status(), 1, Integer::sum);
                if (firstRefusal == null) {
                    firstRefusal = a.status() + " " + a.body().substring(0, Math.min(200, a.body().length()));
                }
                return;
            }
            r1 += hits(q, found, 1);
            r5 += hits(q, found, 5);
            double at10 = hits(q, found, 10);
            r10 += at10;
            g[0] += at10;
            for (int i = 0; i < Math.min(10, found.size()); i++) {
                if (q.evidence().contains(found.get(i))) {
                    mrr += 1.0 / (i + 1);
                    break;
                }
            }
        }

        static double hits(Question q, List<String> found, int k) {
            long n = found.stream().limit(k).filter(q.evidence()::contains).count();
            return (double) n / q.evidence().size();
        }

        double percentile(double p) {
            double[] v = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return v.length == 0 ? Double.NaN : v[Math.min(v.length - 1, (int) Math.ceil(p * v.length) - 1)];
        }
    }

    /** Whether the server takes {@code ranking}; "seed" is sent without the field when the server refuses it. */
    static boolean sendsRanking = true;

    static String searchBody(String query, String bank, String ranking, int topK) {
        return "{\"query\": " + Json.str(query) + ", \"top_k\": " + topK + ", \"banks\": [" + Json.str("user:" + bank)
                + "]" + (ranking.equals("seed") && !sendsRanking ? "" : ", \"ranking\": " + Json.str(ranking)) + "}";
    }

    /** One short search with {@code ranking}: null when the server takes it, else its refusal. */
    static String probe(String store, String bank, String ranking) throws InterruptedException {
        Answer a = call("POST", "/v1/stores/" + store + "/memories/search", searchBody("hello", bank, ranking, 1));
        if (a.status() == 200) {
            return null;
        }
        if (ranking.equals("seed") && a.status() == 422 && sendsRanking) {
            sendsRanking = false; // a server from before the rankings: its one ranking is the seed's
            return probe(store, bank, ranking);
        }
        return a.status() + " " + a.body().substring(0, Math.min(200, a.body().length()));
    }

    @SuppressWarnings("unchecked")
    static Score ask(String store, Dataset d, String ranking, int topK, int threads) throws Exception {
        Score score = new Score();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (Conversation c : d.conversations()) {
            for (Question q : c.questions()) {
                String body = searchBody(q.text(), c.bank(), ranking, topK);
                done.add(pool.submit(() -> {
                    Answer a = call("POST", "/v1/stores/" + store + "/memories/search", body);
                    List<String> found = new ArrayList<>();
                    if (a.status() == 200) {
                        Map<String, Object> r = (Map<String, Object>) Json.parse(a.body());
                        for (Object o : (List<Object>) r.get("results")) {
                            found.add((String) ((Map<String, Object>) ((Map<String, Object>) o).get("memory"))
                                    .get("id"));
                        }
                    }
                    score.add(q, found, a);
                    return null;
                }));
            }
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        return score;
    }

    // ---- embedding lag ---------------------------------------------------------------------------------------

    static void lag(String store, int seconds, int threads, int capSecs, int graceSecs) throws Exception {
        int rate = 100;
        int total = rate * seconds;
        Random random = new Random(42);
        String[] words = ("garden kitchen river market train ticket coffee morning evening concert guitar "
                + "holiday sister brother doctor office project deadline recipe bread bicycle winter summer "
                + "museum painting puppy neighbour letter birthday wedding island mountain forest").split(" ");
        Map<String, Instant> acked = new ConcurrentHashMap<>();
        List<Double> saveMillis = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        say("lag: saving %d memories at %d a second into %s...", total, rate, store);
        long t0 = System.nanoTime();
        for (int i = 0; i < total; i++) {
            long due = t0 + i * (1_000_000_000L / rate);
            long sleep = due - System.nanoTime();
            if (sleep > 0) {
                TimeUnit.NANOSECONDS.sleep(sleep);
            }
            StringBuilder text = new StringBuilder("Note " + i + ":");
            for (int w = 0; w < 12; w++) {
                text.append(' ').append(words[random.nextInt(words.length)]);
            }
            String id = "lag-" + i;
            String body = "{\"id\": " + Json.str(id) + ", \"bank\": {\"type\": \"user\", \"id\": \"lag\"}, "
                    + "\"content\": " + Json.str(text.toString()) + "}";
            done.add(pool.submit(() -> {
                Answer a = call("POST", "/v1/stores/" + store + "/memories", body);
                if (a.status() == 201 || a.status() == 200) {
                    acked.put(id, Instant.now());
                    synchronized (saveMillis) {
                        saveMillis.add(a.nanos() / 1e6);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        double secs = (System.nanoTime() - t0) / 1e9;
        double[] saves = saveMillis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        say("lag: %d of %d saves acknowledged in %.1f s (%.0f a second), save p50 %.1f ms, p99 %.1f ms",
                acked.size(), total, secs, acked.size() / secs, pct(saves, 0.5), pct(saves, 0.99));
        Embedded e = awaitEmbeddings(store, acked.keySet(), capSecs, graceSecs);
        double drained = e.drained();
        say("lag: every save embedded within %.1f s after the last one (polled once a second)", drained);
        results.put("embed_drain_s", String.format(Locale.ROOT, "%.1f", drained));
        if (!e.at().isEmpty()) {
            double[] lags = e.at().entrySet().stream()
                    .mapToDouble(x -> Duration.between(acked.get(x.getKey()), x.getValue()).toNanos() / 1e6).sorted()
                    .toArray();
            say("lag: embedding made after the save's acknowledgement (client clock): p50 %.0f ms, p99 %.0f ms, "
                    + "max %.0f ms (%d embedded, %d not)", pct(lags, 0.5), pct(lags, 0.99), lags[lags.length - 1],
                    lags.length, acked.size() - lags.length);
            lagFigures(pct(lags, 0.5), pct(lags, 0.99), lags[lags.length - 1], acked.size() - lags.length);
        } else if (e.status() != null && e.status().get("lag_ms") instanceof Map<?, ?> lag && lag.get("p50") != null) {
            long notEmbedded = ((Number) e.status().get("memories")).longValue()
                    - ((Number) e.status().get("embedded")).longValue();
            double p50 = ((Number) lag.get("p50")).doubleValue();
            double p99 = ((Number) lag.get("p99")).doubleValue();
            double max = ((Number) lag.get("max")).doubleValue();
            say("lag: embedding made after the save (the store's recall status, server clock, the last ten minutes): "
                    + "p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d not embedded)", p50, p99, max, notEmbedded);
            lagFigures(p50, p99, max, notEmbedded);
        } else {
            say("lag: no embeddings to measure");
        }
    }

    static void lagFigures(double p50, double p99, double max, long notEmbedded) {
        results.put("embed_lag_p50_ms", String.format(Locale.ROOT, "%.0f", p50));
        results.put("embed_lag_p99_ms", String.format(Locale.ROOT, "%.0f", p99));
        results.put("embed_lag_max_ms", String.format(Locale.ROOT, "%.0f", max));
        results.put("embed_lag_not_embedded", String.valueOf(notEmbedded));
    }

    static double pct(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1,
                Math.max(0, (int) Math.ceil(p * sorted.length) - 1))];
    }

    // ---- the run ---------------------------------------------------------------------------------------------

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java bench/Quality.java URL TOKEN [--dev PATH] [--own PATH] [--no-dev] "
                    + "[--no-own] [--rankings seed,lexical,semantic,hybrid] [--lag [SECONDS]] [--no-recall] ...");
            System.exit(2);
        }
        url = args[0].replaceAll("/+$", "");
        token = args[1];
        Map<String, String> o = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String name = args[i].replaceFirst("^--", "");
            boolean valued = i + 1 < args.length && !args[i + 1].startsWith("--");
            o.put(name, valued ? args[++i] : "");
        }
        int threads = Integer.parseInt(o.getOrDefault("threads", "8"));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newFixedThreadPool(threads + 2, r -> {
                    Thread t = new Thread(r, "http");
                    t.setDaemon(true);
                    return t;
                })).build();
        int searchThreads = Integer.parseInt(o.getOrDefault("search-threads", "1"));
        int topK = Integer.parseInt(o.getOrDefault("top-k", "10"));
        int cap = Integer.parseInt(o.getOrDefault("embed-wait", "900"));
        int grace = Integer.parseInt(o.getOrDefault("field-grace", "15"));
        int limit = Integer.parseInt(o.getOrDefault("conversations", String.valueOf(Integer.MAX_VALUE)));
        List<String> rankings = List.of(o.getOrDefault("rankings", String.join(",", RANKINGS)).split(","));
        String run = Long.toString(System.currentTimeMillis(), 36);

        List<Dataset> datasets = new ArrayList<>();
        if (!o.containsKey("no-recall")) {
            Path dev = Path.of(o.getOrDefault("dev", "../shared/eval/locomo-dev/locomo-dev.json"));
            if (!o.containsKey("no-dev") && Files.exists(dev)) {
                datasets.add(load("dev", dev, limit));
            } else if (!o.containsKey("no-dev")) {
                say("no LoCoMo development set at %s: measuring without it", dev);
            }
            Path own = Path.of(o.getOrDefault("own", "target/quality/recallset.json"));
            if (!o.containsKey("no-own") && Files.exists(own)) {
                datasets.add(load("own", own, limit));
            } else if (!o.containsKey("no-own")) {
                say("no own set at %s (java bench/RecallSet.java %s makes it)", own, own);
            }
        }
        Map<String, Map<String, Score>> scores = new LinkedHashMap<>();
        for (Dataset d : datasets) {
            say("%s: %d conversations, %d turns, %d questions of categories 1-4; evidence ids: %d repaired "
                    + "(two in one, a stray colon), %d matching no turn%s, %d questions left without evidence",
                    d.name(), d.conversations().size(), d.turns(), d.questions(), d.repaired(), d.unmatched(),
                    d.unmatchedSamples().isEmpty() ? "" : " " + d.unmatchedSamples(), d.withoutEvidence());
            String store = "quality-" + d.name() + "-" + run;
            Map<String, Instant> acked = save(store, d, threads);
            awaitEmbeddings(store, acked.keySet(), cap, grace);
            String firstBank = d.conversations().get(0).bank();
            Map<String, Score> byRanking = new LinkedHashMap<>();
            for (String ranking : rankings) {
                String refused = probe(store, firstBank, ranking);
                if (refused != null) {
                    say("  %s: the server refuses this ranking (%s); skipped", ranking, refused);
                    continue;
                }
                Score s = ask(store, d, ranking, topK, searchThreads);
                byRanking.put(ranking, s);
                say("  %s: recall@10 %.3f, %d refused, p50 %.1f ms%s", ranking, s.r10 / s.questions, s.refused,
                        s.percentile(0.5), s.firstRefusal == null ? "" : " (e.g. " + s.firstRefusal + ")");
            }
            scores.put(d.name(), byRanking);
        }
        if (!scores.isEmpty()) {
            table(scores);
        }
        if (o.containsKey("lag")) {
            String secs = o.get("lag");
            lag("quality-lag-" + run, secs.isEmpty() ? 20 : Integer.parseInt(secs), threads, cap, grace);
        }
        results.forEach((k, v) -> System.out.println("quality " + k + " " + v));
        System.out.flush();
        System.exit(0);
    }

    /** The table, the breakdown by wording (own set) and the figures for the RESULT line. */
    static void table(Map<String, Map<String, Score>> scores) {
        StringBuilder out = new StringBuilder("\n| dataset | ranking | questions | recall@1 | recall@5 | recall@10 | MRR "
                + "| refused | search p50 ms | p99 ms |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (var d : scores.entrySet()) {
            for (var r : d.getValue().entrySet()) {
                Score s = r.getValue();
                double n = s.questions;
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %.1f | %.1f "
                                + "|\n", d.getKey(), r.getKey(), s.questions, s.r1 / n, s.r5 / n, s.r10 / n, s.mrr / n,
                        s.refused, s.percentile(0.5), s.percentile(0.99)));
                String suffix = (d.getKey().equals("dev") ? "_dev" : "") + (r.getKey().equals("hybrid") ? ""
                        : "_" + r.getKey());
                results.put("recall_at10" + suffix, String.format(Locale.ROOT, "%.3f", s.r10 / n));
                results.put("recall_at1" + suffix, String.format(Locale.ROOT, "%.3f", s.r1 / n));
                results.put("mrr" + suffix, String.format(Locale.ROOT, "%.3f", s.mrr / n));
            }
        }
        for (var d : scores.entrySet()) {
            List<String> groups = d.getValue().values().stream().flatMap(s -> s.byGroup.keySet().stream()).distinct()
                    .sorted().toList();
            out.append("\n").append(d.getKey()).append(": recall@10 by ")
                    .append(d.getKey().equals("own") ? "wording" : "kind").append("\n\n| group | questions |");
            d.getValue().keySet().forEach(r -> out.append(' ').append(r).append(" |"));
            out.append("\n|---|---|").append("---|".repeat(d.getValue().size())).append('\n');
            for (String g : groups) {
                int n = d.getValue().values().stream().mapToInt(s -> (int) s.byGroup.getOrDefault(g,
                        new double[2])[1]).max().orElse(0);
                out.append("| ").append(g).append(" | ").append(n).append(" |");
                for (Score s : d.getValue().values()) {
                    double[] v = s.byGroup.getOrDefault(g, new double[2]);
                    out.append(String.format(Locale.ROOT, " %.3f |", v[1] == 0 ? Double.NaN : v[0] / v[1]));
                }
                out.append('\n');
            }
        }
        System.out.println(out);
    }

    static void say(String format, Object... args) {
        System.err.println(String.format(Locale.ROOT, format, args));
    }

    /** A small JSON reader (objects as maps, arrays as lists, numbers as doubles) and a string writer. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.space();
            if (j.i != text.length()) {
                throw j.error("trailing characters");
            }
            return v;
        }

        private Object value() {
            space();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    space();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        space();
                        String k = string();
                        space();
                        expect(':');
                        m.put(k, value());
                        space();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[' -> {
                    i++;
                    List<Object> l = new ArrayList<>();
                    space();
                    if (peek(']')) {
                        return l;
                    }
                    do {
                        l.add(value());
                        space();
                    } while (peek(','));
                    expect(']');
                    return l;
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", i)) {
                        i += 4;
                        return Boolean.TRUE;
                    }
                    if (s.startsWith("false", i)) {
                        i += 5;
                        return Boolean.FALSE;
                    }
                    if (s.startsWith("null", i)) {
                        i += 4;
                        return null;
                    }
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    if (start == i) {
                        throw error("unexpected character");
                    }
                    return Double.parseDouble(s.substring(start, i));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at " + i);
        }

        static String str(String v) {
            StringBuilder b = new StringBuilder("\"");
            for (int k = 0; k < v.length(); k++) {
                char c = v.charAt(k);
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }
    }
}
