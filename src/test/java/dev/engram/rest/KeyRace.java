package dev.engram.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Requests under one idempotency key sent at once, from as many threads, released together. */
public final class KeyRace {

    private KeyRace() {
    }

    /**
     * Sends {@code request} from {@code threads} threads at once and asserts what a key promises: every answer has
     * {@code status}, all are the one answer, and all but one say they were replayed ({@code why} says what the one
     * did).
     */
    public static void assertOneAnswer(int threads, int status, String why, Callable<Response> request)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return request.call();
                }));
            }
            go.countDown();
            Set<String> bodies = new HashSet<>();
            int replayed = 0;
            for (Future<Response> f : answers) {
                Response r = f.get();
                assertEquals(status, r.statusCode(), r.asString());
                bodies.add(r.asString());
                replayed += "true".equals(r.header(IdempotencyKeys.REPLAYED)) ? 1 : 0;
            }
            assertEquals(1, bodies.size(), "every request got the one answer");
            assertEquals(threads - 1, replayed, why);
        } finally {
            pool.shutdown();
        }
    }
}
