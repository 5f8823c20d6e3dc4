package dev.engram.recall;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The deterministic reflector, for use without a model: facts that share a topic (a tag, or a keyword for a fact
 * without tags) are consolidated into one observation "About {topic}: {content} / {content} ...", and an active
 * observation about the same topic is replaced by one that adds the new facts to it. The largest topics go first,
 * then by name; a fact joins one observation only; a topic with fewer than two new facts waits. Confidence is the
 * mean importance of the new facts, to two decimals.
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
            Observation o = observe(topic, group, existing);
            if (o != null) {
                placed.addAll(o.evidence());
                observations.add(o);
            }
        }
        return observations;
    }

    private static Observation observe(String topic, List<Memory> group, List<Memory> existing) {
        String head = "About " + topic + ": ";
        Memory older = null;
        for (Memory o : existing) {
            if (o.content().startsWith(head)) {
                older = o;
            }
        }
        Map<String, String> said = new LinkedHashMap<>();
        for (Memory f : group) {
            said.put(f.id(), f.content().strip());
        }
        double confidence = BigDecimal.valueOf(group.stream().mapToDouble(Memory::importance).average().orElse(0.5))
                .setScale(2, RoundingMode.HALF_EVEN).doubleValue();
        if (older != null) {
            String longer = older.content() + JOIN + String.join(JOIN, said.values());
            if (fits(longer)) {
                List<String> evidence = new ArrayList<>(older.evidence());
                evidence.addAll(said.keySet());
                return new Observation(longer, confidence, evidence, false, older.id());
            }
        }
        StringBuilder content = new StringBuilder(head);
        List<String> evidence = new ArrayList<>();
        for (Map.Entry<String, String> e : said.entrySet()) {
            String next = (evidence.isEmpty() ? "" : JOIN) + e.getValue();
            if (!fits(content + next)) {
                break;
            }
            content.append(next);
            evidence.add(e.getKey());
        }
        return evidence.size() < 2 ? null : new Observation(content.toString(), confidence, evidence, false, "");
    }

    private static boolean fits(String content) {
        return content.getBytes(StandardCharsets.UTF_8).length <= MemoryRules.MAX_CONTENT_BYTES;
    }
}
