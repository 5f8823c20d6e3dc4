import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live follower's latency: one client follows a store's journal (its SSE stream, from the store's seq), another
 * writes an entry of the store, waits until the follower has the write's record, and writes again, for a fixed time.
 * Prints one line "tps=... p50_ms=... p99_ms=... ok=... errors=...": tps is these round trips a second, the
 * percentiles are the delivery's, from the write's reply to the record's arrival at the follower (0 when the record
 * came first). Plain JDK, run as a single source file: java bench/Follow.java url=... store=... scope=... seconds=...
 * (the key from WRK_TOKEN, as the wrk scripts take it).
 */
public class Follow {

    private static final Pattern SEQ = Pattern.compile("\"seq\"\\s*:\\s*(\\d+)");

    public static void main(String[] args) throws Exception {
        java.util.Map<String, String> o = new java.util.HashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            o.put(kv[0], kv[1]);
        }
        String base = o.getOrDefault("url", "http://localhost:8080");
        String store = o.get("store");
        String scope = o.getOrDefault("scope", "follow");
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "10"));
        String token = System.getenv("WRK_TOKEN");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();

        long from = seq(http.send(request(base + "/v1/stores/" + store, token).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        ConcurrentHashMap<Long, Long> arrived = new ConcurrentHashMap<>();
        AtomicLong last = new AtomicLong(from);
        HttpResponse<java.io.InputStream> stream = http.send(request(base + "/v1/stores/" + store
                + "/journal?after=" + from, token).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (stream.statusCode() != 200) {
            throw new IllegalStateException("the journal's stream answered " + stream.statusCode());
        }
        Thread follower = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("id:")) {
                        long seq = Long.parseLong(line.substring(3).trim());
                        arrived.put(seq, System.nanoTime());
                        last.set(seq);
                        synchronized (last) {
                            last.notifyAll();
                        }
                    }
                }
            } catch (Exception e) {
                // the stream closed as the run ended
            }
        });
        follower.setDaemon(true);
        follower.start();

        long[] latencies = new long[1_000_000];
        int n = 0;
        long errors = 0;
        long warm = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(3000, seconds * 300L));
        long end = warm + TimeUnit.SECONDS.toNanos(seconds);
        long t0 = 0;
        for (int i = 0; System.nanoTime() < end; i++) {
            boolean measuring = System.nanoTime() >= warm;
            if (measuring && t0 == 0) {
                t0 = System.nanoTime();
            }
            HttpResponse<String> w = http.send(request(base + "/v1/stores/" + store + "/scopes/" + scope
                    + "/entries/e-" + (i % 50), token).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"followed write " + i + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            long acked = System.nanoTime();
            if (w.statusCode() >= 300) {
                errors += measuring ? 1 : 0;
                continue;
            }
            long seq = seq(w.body());
            long deadline = acked + TimeUnit.SECONDS.toNanos(5);
            synchronized (last) {
                while (last.get() < seq && System.nanoTime() < deadline) {
                    last.wait(5);
                }
            }
            Long at = arrived.remove(seq);
            if (!measuring) {
                continue;
            }
            if (at == null) {
                errors++;
            } else if (n < latencies.length) {
                latencies[n++] = Math.max(0, at - acked);
            }
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long[] all = Arrays.copyOf(latencies, n);
        Arrays.sort(all);
        System.out.printf("tps=%.1f p50_ms=%.3f p99_ms=%.3f ok=%d errors=%d%n", n / elapsed,
                n == 0 ? 0 : all[(int) (n * 0.50)] / 1e6, n == 0 ? 0 : all[(int) Math.min(n - 1, n * 0.99)] / 1e6,
                n, errors);
        System.exit(0);
    }

    private static HttpRequest.Builder request(String url, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        return token == null || token.isEmpty() ? b : b.header("Authorization", "Bearer " + token);
    }

    /** The first "seq" member of a JSON reply: the store's, or the written record's. */
    private static long seq(String json) {
        Matcher m = SEQ.matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no seq in " + json);
        }
        return Long.parseLong(m.group(1));
    }
}
