package dev.engram.memories;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.ReflectionFailed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One reflection of a bank (SPEC §7): its active facts that no active observation cites are the candidates; with
 * fewer than two, nothing is asked; otherwise the reflector's observations are checked and land at once, or nothing
 * does. The reflector is asked outside any transaction (it may be a slow model), so the store checks, under its write
 * lock, that what the reflector saw still holds before it writes.
 */
public final class Reflection {

    /** The note of a reflection with too few candidates, as the reference words it. */
    public static final String TOO_FEW = "not enough new facts to consolidate (need ≥2)";
    /** How many candidates one reflection sends at most, oldest first; the rest wait for the next one. */
    public static final int DEFAULT_MAX_FACTS = 200;

    private Reflection() {
    }

    /**
     * What a reflector is given: {@code facts}, the candidates (at most the cap, oldest first), {@code existing}, the
     * bank's active observations, and how many further candidates are {@code waiting} over the cap.
     */
    public record Basis(Bank bank, List<Memory> facts, List<Memory> existing, int waiting) {

        public Basis {
            facts = List.copyOf(facts);
            existing = List.copyOf(existing);
        }

        /** The basis of a bank whose active memories are {@code active} (oldest first). */
        public static Basis of(Bank bank, List<Memory> active, int maxFacts) {
            List<Memory> existing = active.stream().filter(m -> m.type().equals("observation")).toList();
            Set<String> cited = new HashSet<>();
            existing.forEach(o -> cited.addAll(o.evidence()));
            List<Memory> candidates = active.stream().filter(m -> m.type().equals("fact") && !cited.contains(m.id()))
                    .toList();
            int cap = maxFacts <= 0 ? DEFAULT_MAX_FACTS : maxFacts;
            return new Basis(bank, candidates.subList(0, Math.min(cap, candidates.size())), existing,
                    Math.max(0, candidates.size() - cap));
        }

        /**
         * Why landing {@code plan} on a bank whose active memories are now {@code active} would be wrong, or empty
         * when it is not: a fact it was drawn from changed, went or is cited now, or an observation it replaces
         * went.
         */
        public Optional<String> changedIn(List<Memory> active, List<Planned> plan) {
            Map<String, Memory> now = new HashMap<>();
            Set<String> cited = new HashSet<>();
            for (Memory m : active) {
                now.put(m.id(), m);
                if (m.type().equals("observation")) {
                    cited.addAll(m.evidence());
                }
            }
            for (Memory f : facts) {
                Memory current = now.get(f.id());
                if (current == null || !Objects.equals(current.updatedAt(), f.updatedAt())
                        || !current.type().equals("fact")) {
                    return Optional.of("fact " + f.id() + " changed or is no longer active");
                }
                if (cited.contains(f.id())) {
                    return Optional.of("fact " + f.id() + " was consolidated by another reflection");
                }
            }
            for (Planned p : plan) {
                if (!p.supersedes().isEmpty() && !now.containsKey(p.supersedes())) {
                    return Optional.of("observation " + p.supersedes() + " is no longer active");
                }
            }
            return Optional.empty();
        }
    }

    /** One observation to land, as the memory to save, and the id of the observation it supersedes ("" none). */
    public record Planned(Memory memory, String supersedes) {
    }

    /**
     * Reflects {@code bank} of {@code recall} with {@code reflector}, sending at most {@code maxFacts} facts (0: the
     * default) and at most what the reflector takes at once ({@link Reflector#maxFacts()}).
     */
    public static Reflected reflect(Recall recall, Bank bank, Reflector reflector, int maxFacts, Instant now) {
        int cap = Math.min(maxFacts <= 0 ? DEFAULT_MAX_FACTS : maxFacts, reflector.maxFacts());
        Basis basis = Basis.of(bank, recall.active(bank), cap);
        if (basis.facts().size() < 2) {
            return new Reflected(0, 0, basis.facts().size(), List.of(), reflector.name(), TOO_FEW);
        }
        List<Planned> plan = plan(basis, reflector.consolidate(basis.facts(), basis.existing()), reflector.name(),
                now);
        List<Memory> landed = plan.isEmpty() ? List.of() : recall.consolidate(basis, plan);
        int updated = (int) plan.stream().filter(p -> !p.supersedes().isEmpty()).count();
        String note = basis.waiting() == 0 ? "" : basis.waiting() + " more new facts wait for the next reflection "
                + "(at most " + basis.facts().size() + " are sent at once)";
        return new Reflected(plan.size() - updated, updated, basis.facts().size(), landed.stream().map(Memory::id)
                .toList(), plan.stream().map(Planned::supersedes).filter(s -> !s.isEmpty()).toList(),
                basis.waiting(), reflector.name(), note);
    }

    /**
     * The memories {@code observations} make, in order: one with empty content or fewer than two evidence ids is
     * skipped (as the reference does); anything else a store would refuse is the reflector's mistake, so the whole
     * reflection fails as {@link ReflectionFailed.Kind#MALFORMED}.
     */
    public static List<Planned> plan(Basis basis, List<Observation> observations, String reflector, Instant now) {
        Set<String> citable = new HashSet<>();
        Set<String> replaceable = new HashSet<>();
        basis.facts().forEach(f -> citable.add(f.id()));
        for (Memory o : basis.existing()) {
            citable.add(o.id());
            citable.addAll(o.evidence());
            replaceable.add(o.id());
        }
        List<Planned> plan = new ArrayList<>();
        Set<String> replaced = new HashSet<>();
        int n = 0;
        for (Observation o : observations == null ? List.<Observation>of() : observations) {
            n++;
            if (o == null || o.content().isEmpty() || o.evidence().size() < 2) {
                continue;
            }
            if (o.content().isBlank()) {
                throw malformed(reflector, n, "has blank content");
            }
            if (!(o.confidence() >= 0 && o.confidence() <= 1)) {
                throw malformed(reflector, n, "has confidence " + o.confidence() + ", outside 0 to 1");
            }
            for (String id : o.evidence()) {
                if (!citable.contains(id)) {
                    throw malformed(reflector, n, "cites " + id + ", which is none of the memories it was given");
                }
            }
            if (!o.updates().isEmpty() && (!replaceable.contains(o.updates()) || !replaced.add(o.updates()))) {
                throw malformed(reflector, n, "replaces " + o.updates() + ", which is not an active observation "
                        + "of the bank (or is replaced twice)");
            }
            Memory m = new Memory(UUID.randomUUID().toString(), basis.bank(), "observation", o.content(),
                    o.confidence(), List.of(), List.of(), "consolidated", o.confidence(), o.evidence(), null, null, "",
                    o.conflicting(), false, null, "", 0, null, null, null, List.of());
            try {
                MemoryRules.check(m.saved(now), now);
            } catch (Invalid e) {
                throw malformed(reflector, n, "is refused: " + e.getMessage());
            }
            plan.add(new Planned(m, o.updates()));
        }
        return plan;
    }

    /** A reflection that lost a race with another change of its bank ({@code why}). */
    public static ReflectionFailed bankChanged(String why) {
        return new ReflectionFailed(ReflectionFailed.Kind.BANK_CHANGED, "", "The bank changed while the reflector "
                + "was answering: " + why + ". Nothing was saved; reflect again.");
    }

    private static ReflectionFailed malformed(String reflector, int n, String what) {
        return new ReflectionFailed(ReflectionFailed.Kind.MALFORMED, reflector, "The " + reflector + " reflector's "
                + "observation " + n + " " + what + ". Nothing was saved; reflect again.");
    }
}
