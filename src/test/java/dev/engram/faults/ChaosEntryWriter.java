package dev.engram.faults;

import static dev.engram.faults.ChaosIT.STORE;

import dev.engram.faults.ChaosClient.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One client's entries in {@link ChaosIT}: PUT, PATCH and DELETE on names of its own, so it knows what each must
 * hold, and the check of what the journal and the live entries hold of them.
 */
final class ChaosEntryWriter {

    final ChaosClient chaos;
    final int client;
    final Map<String, String> expected = new HashMap<>();
    final Map<String, Integer> rowsExpected = new HashMap<>();
    final List<String> contents = new ArrayList<>();
    long acked;

    ChaosEntryWriter(ChaosClient chaos, int client) {
        this.chaos = chaos;
        this.client = client;
    }

    void run() throws InterruptedException {
        Random random = new Random(client);
        for (int i = 0; !chaos.stop.get(); i++) {
            String name = "e-" + client + "-" + random.nextInt(4);
            String path = "/v1/stores/" + STORE + "/scopes/notes/entries/" + name;
            String now = expected.get(name);
            String text = "w " + client + " " + i;
            Outcome o;
            if (now == null) {
                o = chaos.send("PUT", path, "{\"content\": \"" + text + "\"}", "e-" + client + "-" + i);
            } else if (random.nextInt(3) == 0) {
                text = null;
                o = chaos.send("DELETE", path, null, "e-" + client + "-" + i);
            } else if (random.nextBoolean()) {
                o = chaos.send("PATCH", path, "{\"old_text\": \"" + now + "\", \"new_text\": \"" + text + "\"}",
                        "e-" + client + "-" + i);
            } else {
                o = chaos.send("PUT", path, "{\"content\": \"" + text + "\"}", "e-" + client + "-" + i);
            }
            if (o == Outcome.ACKED) {
                acked++;
                rowsExpected.merge(name, 1, Integer::sum);
                if (text == null) {
                    expected.remove(name);
                } else {
                    expected.put(name, text);
                    contents.add(text);
                }
            } else {
                // refused for good: what the name holds is no longer known, so the writer leaves it
                expected.put(name, "?");
                return;
            }
        }
    }

    void check(Journal j, List<String> lost, List<String> doubled) {
        Map<String, Integer> copies = new HashMap<>();
        Map<String, Integer> rows = new HashMap<>();
        for (Journal.Row r : j.rows) {
            if (r.name().startsWith("e-" + client + "-")) {
                rows.merge(r.name(), 1, Integer::sum);
                if (!r.deleted()) {
                    copies.merge(r.content(), 1, Integer::sum);
                }
            }
        }
        for (String c : contents) {
            int n = copies.getOrDefault(c, 0);
            if (n == 0) {
                lost.add("entry content " + c);
            } else if (n > 1) {
                doubled.add("entry content " + c + " x" + n);
            }
        }
        rowsExpected.forEach((name, n) -> {
            int got = rows.getOrDefault(name, 0);
            if (got < n) {
                lost.add("entry " + name + ": " + n + " writes acknowledged, " + got + " journal rows");
            } else if (got > n) {
                doubled.add("entry " + name + ": " + n + " writes acknowledged, " + got + " journal rows");
            }
        });
        expected.forEach((name, content) -> {
            Journal.Live live = j.live.get("notes/" + name);
            if (!content.equals("?") && (live == null || !live.content().equals(content))) {
                lost.add("entry " + name + " holds " + (live == null ? "nothing" : live.content())
                        + ", not its last acknowledged " + content);
            }
        });
    }
}
