package dev.engram.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The digests are SHA-256's, and threads digesting at once do not share a digest's state. */
class Sha256Test {

    @Test
    void digests_are_the_standard_ones() {
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Sha256.hex(""));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256.hex("abc"));
    }

    @Test
    void the_hex_is_the_standard_formatters_for_any_digest_and_prefix() {
        Random random = new Random(25);
        List<String> prefixes = List.of("", "sha256:", "v:", "é:", "記:");
        for (int i = 0; i < 20_000; i++) {
            byte[] digest = new byte[random.nextInt(40)];
            random.nextBytes(digest);
            String prefix = prefixes.get(i % prefixes.size());
            assertEquals(prefix + HexFormat.of().formatHex(digest), Sha256.written(prefix, digest));
        }
        assertEquals("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                Sha256.hex("sha256:", "abc"));
    }

    @Test
    void threads_digesting_at_once_each_get_their_own_digest() throws Exception {
        List<String> texts = IntStream.range(0, 2_000).mapToObj(i -> "text " + i + " " + "x".repeat(i % 97)).toList();
        List<String> alone = texts.stream().map(Sha256::hex).toList();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> together = texts.stream().map(t -> pool.submit(() -> Sha256.hex(t))).toList();
            for (int i = 0; i < texts.size(); i++) {
                assertEquals(alone.get(i), together.get(i).get(), texts.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
