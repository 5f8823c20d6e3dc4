package dev.engram.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writers' side of {@link ChaosIT}: each write sent to either replica under its own key until it is
 * acknowledged or refused for good, and the figures of what the answers were, during the kills and outside them.
 */
final class ChaosClient {

    /** What one request came to: acknowledged (2xx), refused for good (other 4xx), or to be sent again. */
    enum Outcome { ACKED, REFUSED, RETRY }

    final List<EngramProcess> replicas;
    final AtomicInteger disturbed = new AtomicInteger();
    final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    final List<String> refusals = Collections.synchronizedList(new ArrayList<>());
    final AtomicBoolean stop = new AtomicBoolean();

    ChaosClient(List<EngramProcess> replicas) {
        this.replicas = replicas;
    }

    /**
     * Sends one write until it is acknowledged or refused for good, to either replica, under one key: after a
     * timeout, a cut connection, a 5xx, a 409 or a 429 it is sent again with the same key.
     */
    Outcome send(String method, String path, String body, String key) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        for (int attempt = 0; System.nanoTime() < giveUp; attempt++) {
            EngramProcess replica = replicas.get((int) ((Thread.currentThread().getId() + attempt) % replicas.size()));
            boolean during = disturbed.get() > 0;
            try {
                HttpRequest.Builder b = EngramProcess.request(replica.uri(path)).timeout(Duration.ofSeconds(5))
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body));
                if (body != null) {
                    b.header("Content-Type", "application/json");
                }
                if (key != null) {
                    b.header("Idempotency-Key", key);
                }
                HttpResponse<String> r = EngramProcess.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
                int s = r.statusCode();
                if (s < 300) {
                    bump("acked");
                    if (r.headers().firstValue("Idempotent-Replayed").isPresent()) {
                        bump("replayed");
                    }
                    return Outcome.ACKED;
                }
                if (s >= 500) {
                    bump(during || disturbed.get() > 0 ? "5xx during kills" : "5xx outside kills");
                    bump(s + "");
                } else if (s == 409 || s == 429) {
                    bump(s + "");
                } else {
                    bump(s + "");
                    refusals.add(method + " " + path + " " + key + ": " + s + " " + r.body());
                    return Outcome.REFUSED;
                }
            } catch (java.io.IOException e) {
                bump(during || disturbed.get() > 0 ? "cut during kills" : "cut outside kills");
            }
            Thread.sleep(100);
        }
        refusals.add(method + " " + path + " " + key + ": not acknowledged in 3 minutes");
        return Outcome.REFUSED;
    }

    private void bump(String what) {
        counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    long count(String what) {
        AtomicLong n = counts.get(what);
        return n == null ? 0 : n.get();
    }
}
