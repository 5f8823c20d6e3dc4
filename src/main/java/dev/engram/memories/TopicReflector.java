package dev.engram.memories;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The deterministic reflector, for use without a model: facts that share a topic (a tag, or a keyword for a fact
 * without tags) are consolidated into one observation "About {topic}: {content} / {content} ...", and an active
 * observation about the same topic is replaced by one that adds the new facts to it. The largest topics go first,
 * then by name; a fact joins one observation only; a topic with fewer than two new facts waits. No observation
 * cites more than {@link MemoryRules#MAX_SET_SIZE} memories: a larger topic is consolidated in several. Confidence
 * is the mean importance of the new facts, to two decimals.
 */
public final class TopicReflector implements Reflector {

    private static final String JOIN = " / ";

    @Override
    public String name() {
        return "deterministic";
    }

    @Override
    public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
        Map<String, List<Memory>> byTopic = new TreeMap<>();
        for (Memory f : facts) {
            for (String topic : f.tags().isEmpty() ? f.keywords() : f.tags()) {
                byTopic.computeIfAbsent(topic, t -> new ArrayList<>()).add(f);
            }
        }
        List<String> topics = new ArrayList<>(byTopic.keySet());
        topics.sort(Comparator.comparingInt((String t) -> byTopic.get(t).size()).reversed()
                .thenComparing(Comparator.naturalOrder()));
        Set<String> placed = new LinkedHashSet<>();
        List<Observation> observations = new ArrayList<>();
        for (String topic : topics) {
            List<Memory> group = byTopic.get(topic).stream().filter(f -> !placed.contains(f.id())).toList();
            if (group.size() < 2) {
                continue;
            }
            for (Observation o : observe(topic, group, existing)) {
                placed.addAll(o.evidence());
                observations.add(o);
            }
        }
        return observations;
    }

    /**
     * The observations of one topic's new facts {@code group}: as many as fit are added to the topic's observation
     * that cites fewest facts (the latest of those), so that facts of two observations made at the same instant do
     * not depend on which of them sorts last; the rest go into new observations of at most {@link MemoryRules#MAX_SET_SIZE} facts and
     * {@link MemoryRules#MAX_CONTENT_BYTES} bytes each. A fact too long for any observation, or one left alone at
     * the end, waits.
     */
    private static List<Observation> observe(String topic, List<Memory> group, List<Memory> existing) {
        String head = "About " + topic + ": ";
        Memory older = null;
        for (Memory o : existing) {
            if (o.content().startsWith(head) && (older == null
                    || o.evidence().size() <= older.evidence().size())) {
                older = o;
            }
        }
        List<Observation> observations = new ArrayList<>();
        List<Memory> rest = group;
        if (older != null) {
            List<Memory> added = new ArrayList<>();
            int bytes = bytes(older.content());
            for (Memory f : group) {
                int more = bytes(JOIN) + bytes(said(f));
                if (older.evidence().size() + added.size() >= MemoryRules.MAX_SET_SIZE
                        || bytes + more > MemoryRules.MAX_CONTENT_BYTES) {
                    break;
                }
                added.add(f);
                bytes += more;
            }
            if (!added.isEmpty()) {
                List<String> evidence = new ArrayList<>(older.evidence());
                added.forEach(f -> evidence.add(f.id()));
                observations.add(new Observation(older.content() + JOIN + joined(added), confidence(added), evidence,
                        false, older.id()));
                rest = group.subList(added.size(), group.size());
            }
        }
        for (List<Memory> chunk : chunks(head, rest)) {
            if (chunk.size() >= 2) {
                List<String> evidence = chunk.stream().map(Memory::id).toList();
                observations.add(new Observation(head + joined(chunk), confidence(chunk), evidence, false, ""));
            }
        }
        return observations;
    }

    /**
     * {@code facts} in order, cut into runs that each fit one observation starting with {@code head}; a last run of
     * one fact takes the one before it from the run before, when that leaves two there and the bytes allow.
     */
    private static List<List<Memory>> chunks(String head, List<Memory> facts) {
        List<List<Memory>> chunks = new ArrayList<>();
        List<Memory> current = new ArrayList<>();
        int bytes = bytes(head);
        for (Memory f : facts) {
            int more = (current.isEmpty() ? 0 : bytes(JOIN)) + bytes(said(f));
            if (!current.isEmpty() && (current.size() == MemoryRules.MAX_SET_SIZE
                    || bytes + more > MemoryRules.MAX_CONTENT_BYTES)) {
                chunks.add(current);
                current = new ArrayList<>();
                bytes = bytes(head);
                more = bytes(said(f));
            }
            if (bytes + more <= MemoryRules.MAX_CONTENT_BYTES) {
                current.add(f);
                bytes += more;
            }
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        int n = chunks.size();
        if (n >= 2 && chunks.get(n - 1).size() == 1 && chunks.get(n - 2).size() > 2) {
            List<Memory> before = chunks.get(n - 2);
            List<Memory> last = List.of(before.get(before.size() - 1), chunks.get(n - 1).get(0));
            if (bytes(head + joined(last)) <= MemoryRules.MAX_CONTENT_BYTES) {
                chunks.set(n - 2, before.subList(0, before.size() - 1));
                chunks.set(n - 1, last);
            }
        }
        return chunks;
    }

    private static String said(Memory f) {
        return f.content().strip();
    }

    private static String joined(List<Memory> facts) {
        return String.join(JOIN, facts.stream().map(TopicReflector::said).toList());
    }

    private static double confidence(List<Memory> facts) {
        return BigDecimal.valueOf(facts.stream().mapToDouble(Memory::importance).average().orElse(0.5))
                .setScale(2, RoundingMode.HALF_EVEN).doubleValue();
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
