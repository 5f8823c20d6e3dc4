import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Engram's side of the benchmark: concurrent HTTP clients for a fixed time, each on its own connection, printing
 * one line "tps=... p50_ms=... p99_ms=... ok=... errors=..." (plus conflicts and retries for the conditional
 * workload). Plain JDK, run as a single source file: java bench/Load.java <workload> key=value...
 *
 * Workloads: write (PUT to store prefix-N, N of stores), render (GET render), search (GET search),
 * conditional (GET then PUT If-Match on one entry, retried on 412).
 */
public class Load {

    public static void main(String[] args) throws Exception {
        String workload = args[0];
        Map<String, String> o = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            o.put(kv[0], kv[1]);
        }
        String base = o.getOrDefault("url", "http://localhost:8080");
        int clients = Integer.parseInt(o.getOrDefault("clients", "16"));
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "10"));
        int stores = Integer.parseInt(o.getOrDefault("stores", "100"));
        String prefix = o.getOrDefault("prefix", "wb");
        String content = "x".repeat(Integer.parseInt(o.getOrDefault("bytes", "200")) - 1) + "\n";

        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong conflicts = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        long[] errors = new long[clients];
        long[] counts = new long[clients];
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            long[] mine = new long[2_000_000];
            latencies.add(mine);
            Thread t = new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5)).build();
                int i = 0;
                while (!stop.get()) {
                    long start = System.nanoTime();
                    boolean ok;
                    try {
                        ok = switch (workload) {
                            case "write" -> status(http, put(base + "/v1/stores/" + prefix + "-"
                                    + ThreadLocalRandom.current().nextInt(stores) + "/scopes/notes/entries/n-"
                                    + ThreadLocalRandom.current().nextInt(50), "{\"content\":" + json(content
                                    + client + "-" + i++) + "}", null)) < 300;
                            case "render" -> status(http, get(base + "/v1/stores/" + o.get("store")
                                    + "/render?scope=user")) == 200;
                            case "get" -> status(http, get(base + o.get("path"))) == 200;
                            case "search" -> status(http, get(base + "/v1/stores/" + o.get("store") + "/search?q="
                                    + URLEncoder.encode(o.get("q"), StandardCharsets.UTF_8))) == 200;
                            case "conditional" -> conditional(http, base + "/v1/stores/" + o.get("store")
                                    + "/scopes/notes/entries/hot", client, i++, conflicts, retries);
                            default -> throw new IllegalArgumentException(workload);
                        };
                    } catch (Exception e) {
                        ok = false;
                    }
                    if (measuring.get()) {
                        if (ok && counts[client] < mine.length) {
                            mine[(int) counts[client]++] = System.nanoTime() - start;
                        } else if (!ok) {
                            errors[client]++;
                        }
                    }
                }
            });
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        Thread.sleep(Math.min(3000, seconds * 300L));
        measuring.set(true);
        conflicts.set(0);
        retries.set(0);
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        for (Thread t : threads) {
            t.join(10_000);
        }
        long n = Arrays.stream(counts).sum();
        long[] all = new long[(int) n];
        int k = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(latencies.get(c), 0, all, k, (int) counts[c]);
            k += (int) counts[c];
        }
        Arrays.sort(all);
        System.out.printf("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d conflicts=%d retries=%d%n", n / elapsed,
                n == 0 ? 0 : all[(int) (n * 0.50)] / 1e6, n == 0 ? 0 : all[(int) Math.min(n - 1, n * 0.99)] / 1e6,
                n, Arrays.stream(errors).sum(), conflicts.get(), retries.get());
    }

    /** The key every request sends, from WRK_TOKEN as the wrk scripts take it; none when unset. */
    static final String TOKEN = System.getenv("WRK_TOKEN");

    static HttpRequest.Builder request(String url) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        return TOKEN == null || TOKEN.isEmpty() ? b : b.header("Authorization", "Bearer " + TOKEN);
    }

    static HttpRequest get(String url) {
        return request(url).build();
    }

    static HttpRequest put(String url, String body, String ifMatch) {
        HttpRequest.Builder b = request(url)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body));
        if (ifMatch != null) {
            b.header("If-Match", ifMatch);
        }
        return b.build();
    }

    static int status(HttpClient http, HttpRequest r) throws Exception {
        return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Read the entry, append a line, write it conditional on what was read; retry on 412 until it lands. */
    static boolean conditional(HttpClient http, String url, int client, int i, AtomicLong conflicts,
            AtomicLong retries) throws Exception {
        for (int attempt = 0; attempt < 50; attempt++) {
            HttpResponse<String> read = http.send(get(url), HttpResponse.BodyHandlers.ofString());
            String etag = read.headers().firstValue("ETag").orElse(null);
            String content = read.statusCode() == 200 ? field(read.body(), "content") : "";
            if (content.length() > 3500) {
                content = content.substring(content.length() - 1000);
            }
            HttpRequest write = etag == null
                    ? request(url).header("Content-Type", "application/json")
                            .header("If-None-Match", "*").PUT(HttpRequest.BodyPublishers.ofString("{\"content\":"
                                    + json("line " + client + "-" + i + "\n") + "}")).build()
                    : put(url, "{\"content\":" + json(content + "line " + client + "-" + i + "\n") + "}", etag);
            int status = status(http, write);
            if (status < 300) {
                return true;
            }
            if (status != 412) {
                return false;
            }
            conflicts.incrementAndGet();
            retries.incrementAndGet();
        }
        return false;
    }

    /** The string value of a top-level member, for the one field this client reads. */
    static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"");
        if (at < 0) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (int i = at + name.length() + 4; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                char e = json.charAt(++i);
                b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
