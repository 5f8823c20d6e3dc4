package dev.engram.memories;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the parts of {@link RecallContract} save and read back: two banks, memories, a scripted reflector. */
final class RecallCases {

    static final Bank ALICE = new Bank("user", "alice");
    static final Bank BOB = new Bank("user", "bob");

    private RecallCases() {
    }

    static Memory memory(String id, Bank bank, String content, double importance) {
        return new Memory(id, bank, "fact", content, importance, List.of(), List.of(), "", 0, List.of(), null, null, "",
                false, false, null, "", 0, null, null, null, List.of());
    }

    static Memory tagged(String id, Bank bank, String content, double importance, List<String> tags,
            List<String> keywords) {
        return new Memory(id, bank, "fact", content, importance, tags, keywords, "", 0, List.of(), null, null, "",
                false, false, null, "", 0, null, null, null, List.of());
    }

    static List<String> ids(List<Scored> found) {
        return found.stream().map(s -> s.memory().id()).toList();
    }

    /** A reflector that answers what the test scripts, and counts its calls and what it was given. */
    static final class Scripted implements Reflector {

        final java.util.function.BiFunction<List<Memory>, List<Memory>, List<Observation>> answer;
        int calls;
        List<Memory> facts = List.of();

        Scripted(java.util.function.BiFunction<List<Memory>, List<Memory>, List<Observation>> answer) {
            this.answer = answer;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
            calls++;
            this.facts = facts;
            return answer.apply(facts, existing);
        }
    }

    static List<String> idsOf(List<Memory> memories) {
        return memories.stream().map(Memory::id).toList();
    }

    /** How often each memory is cited by the bank's active observations, after checking none cites over the bound. */
    static Map<String, Integer> citations(Recall r, Bank bank) {
        Map<String, Integer> cited = new HashMap<>();
        for (Memory o : r.active(bank)) {
            if (o.type().equals("observation")) {
                assertTrue(o.evidence().size() <= MemoryRules.MAX_SET_SIZE, o.evidence().size() + " cited");
                o.evidence().forEach(id -> cited.merge(id, 1, Integer::sum));
            }
        }
        return cited;
    }
}
