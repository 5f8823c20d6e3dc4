import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * bench/edges' clients: a normal client's latency on a cheap authenticated read, idle, then beside 200 connections
 * sending their request head one byte every 5 s, then beside eight clients fetching the largest pages. Plain JDK, run
 * as a single source file: java bench/Edges.java url=... key=... admin=... store=... big=... Prints what it measured
 * and, last, one line "slow_headers_closed=... slow_headers_p99_ratio=... largest_page_bytes=... big_pages_heap_mb=...".
 */
public class Edges {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            o.put(kv[0], kv[1]);
        }
        String url = o.get("url");
        String key = o.get("key");
        String admin = o.get("admin");
        int secs = Integer.parseInt(o.getOrDefault("seconds", "20"));
        int deadline = Integer.parseInt(o.getOrDefault("header_timeout", "10"));
        int slow = Integer.parseInt(o.getOrDefault("slow", "200"));
        URI cheap = URI.create(url + "/v1/stores/" + o.get("store") + "/scopes/user/entries/cheap");

        latency(cheap, key, 3, new AtomicBoolean(true)); // warm-up, unmeasured
        double[] idle = latency(cheap, key, secs / 2, new AtomicBoolean(true));
        say("idle: p50 %.2f ms, p99 %.2f ms, %d requests", idle[0], idle[1], (long) idle[2]);

        // (a) slow heads: each connection sends its head a byte every 5 s; one that is closed is replaced, so that
        // 200 stay open all along. Of the first 200, how many were closed within the deadline (+1 s)?
        URI u = URI.create(url);
        byte[] head = ("GET /v1/stores/" + o.get("store") + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + key + "\r\nX-Pad: " + "p".repeat(200) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        AtomicBoolean trickling = new AtomicBoolean(true);
        List<Long> firstClosedAfter = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger opened = new AtomicInteger();
        List<Thread> slowThreads = new ArrayList<>();
        for (int i = 0; i < slow; i++) {
            Thread t = start(() -> {
                boolean cohort = true;
                while (trickling.get()) {
                    long t0 = System.nanoTime();
                    try (Socket s = new Socket(u.getHost(), u.getPort())) {
                        opened.incrementAndGet();
                        s.setSoTimeout(100);
                        OutputStream out = s.getOutputStream();
                        InputStream in = s.getInputStream();
                        int sent = 0;
                        long next = 0;
                        while (trickling.get()) {
                            long now = System.nanoTime() - t0;
                            if (now >= next && sent < head.length - 1) {
                                out.write(head[sent++]);
                                out.flush();
                                next += 5_000_000_000L;
                            }
                            try {
                                if (in.read() < 0) {
                                    break; // closed by the server
                                }
                                // an answer (the 408): read on until the close
                            } catch (java.net.SocketTimeoutException e) {
                                // nothing yet
                            }
                        }
                        if (!trickling.get()) {
                            return;
                        }
                    } catch (IOException e) {
                        // reset by the server: closed too
                    }
                    if (cohort) {
                        firstClosedAfter.add((System.nanoTime() - t0) / 1_000_000);
                        cohort = false;
                    }
                }
            });
            slowThreads.add(t);
        }
        Thread.sleep(1000);
        double[] underSlow = latency(cheap, key, secs, new AtomicBoolean(true));
        trickling.set(false);
        for (Thread t : slowThreads) {
            t.join(2000);
        }
        long closedInTime = firstClosedAfter.stream().filter(ms -> ms <= (deadline + 1) * 1000L).count();
        say("beside %d slow heads (%d connections opened in all): p50 %.2f ms, p99 %.2f ms, %d requests; "
                + "%d of the first %d closed within %d s (closed after %s ms)", slow, opened.get(), underSlow[0],
                underSlow[1], (long) underSlow[2], closedInTime, slow, deadline + 1, summary(firstClosedAfter));

        // (b) eight clients fetching the largest pages (entries and journal, limit=1000) in a loop.
        String big = o.get("big");
        List<URI> pages = List.of(URI.create(url + "/v1/stores/" + big + "/scopes/user/entries?limit=1000"),
                URI.create(url + "/v1/stores/" + big + "/journal?limit=1000"));
        AtomicBoolean fetching = new AtomicBoolean(true);
        AtomicLong largest = new AtomicLong();
        AtomicLong fetched = new AtomicLong();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> fetchers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            URI page = pages.get(i % 2);
            fetchers.add(start(() -> {
                while (fetching.get()) {
                    try {
                        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(page)
                                .header("Authorization", "Bearer " + key).header("Accept", "application/json")
                                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
                        largest.accumulateAndGet(r.body().length, Math::max);
                        fetched.incrementAndGet();
                        if (r.statusCode() != 200) {
                            failures.add(String.valueOf(r.statusCode()));
                        }
                    } catch (Exception e) {
                        failures.add(e.getClass().getSimpleName());
                    }
                }
            }));
        }
        AtomicLong peakHeap = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = start(() -> {
            while (sampling.get()) {
                try {
                    peakHeap.accumulateAndGet(heapUsed(url, admin), Math::max);
                    Thread.sleep(200);
                } catch (Exception e) {
                    // a sample missed
                }
            }
        });
        Thread.sleep(1000);
        double[] underBig = latency(cheap, key, secs, new AtomicBoolean(true));
        fetching.set(false);
        for (Thread t : fetchers) {
            t.join(60_000);
        }
        sampling.set(false);
        sampler.join(5000);
        Map<String, Integer> failed = new HashMap<>();
        failures.forEach(f -> failed.merge(f, 1, Integer::sum));
        say("beside 8 clients of the largest pages (%d pages fetched, failures %s): p50 %.2f ms, p99 %.2f ms, "
                + "%d requests; largest answer %d bytes; peak heap used %d MB", fetched.get(), failed, underBig[0],
                underBig[1], (long) underBig[2], largest.get(), peakHeap.get() / (1024 * 1024));

        System.out.printf("slow_headers_closed=%d/%d slow_headers_p99_ratio=%.2f largest_page_bytes=%d "
                + "big_pages_heap_mb=%d idle_p99_ms=%.2f slow_p99_ms=%.2f big_pages_p99_ms=%.2f big_pages_failures=%d%n",
                closedInTime, slow, underSlow[1] / idle[1], largest.get(), peakHeap.get() / (1024 * 1024), idle[1],
                underSlow[1], underBig[1], failures.size());
    }

    /** One client's requests, one after another, for {@code seconds}: p50 and p99 in ms, and the count. */
    static double[] latency(URI uri, String key, int seconds, AtomicBoolean go) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + key)
                .timeout(Duration.ofSeconds(30)).build();
        List<Long> micros = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int errors = 0;
        while (System.nanoTime() < end && go.get()) {
            long t0 = System.nanoTime();
            HttpResponse<byte[]> r = HTTP.send(req, HttpResponse.BodyHandlers.ofByteArray());
            micros.add((System.nanoTime() - t0) / 1000);
            if (r.statusCode() != 200) {
                errors++;
            }
        }
        if (errors > 0) {
            say("  %d of %d cheap reads were not 200", errors, micros.size());
        }
        Collections.sort(micros);
        return new double[] {micros.get(micros.size() / 2) / 1000.0,
                micros.get(Math.min(micros.size() - 1, (int) (micros.size() * 0.99))) / 1000.0, micros.size()};
    }

    static long heapUsed(String url, String admin) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/q/metrics"))
                .header("Authorization", "Bearer " + admin).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        double sum = 0;
        for (String line : r.body().split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes") && line.contains("area=\"heap\"")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return (long) sum;
    }

    static String summary(List<Long> ms) {
        if (ms.isEmpty()) {
            return "none";
        }
        List<Long> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        return "min " + sorted.get(0) + ", median " + sorted.get(sorted.size() / 2) + ", max "
                + sorted.get(sorted.size() - 1);
    }

    static Thread start(Runnable r) {
        Thread t = new Thread(r);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void say(String format, Object... args) {
        System.err.printf(format + "%n", args);
    }
}
