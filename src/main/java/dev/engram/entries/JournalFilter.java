package dev.engram.entries;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Scope;
import java.util.Objects;
import java.util.Optional;

/**
 * Which records of a store's journal a read of a range picks ({@link Store#journalRange}): every record, those of
 * one scope's entries, those of one entry, or the lost updates (writes whose {@link Change#forked base is not what
 * they replaced}); the conditions that are set all hold.
 *
 * @param scope the entries' scope, or empty for every record (other tiers' notes included)
 * @param name the entry's name within {@code scope}, or empty for each of its entries
 * @param lostOnly whether only lost updates are picked
 */
public record JournalFilter(Optional<Scope> scope, Optional<String> name, boolean lostOnly) {

    /** Every record. */
    public static final JournalFilter ALL = new JournalFilter(Optional.empty(), Optional.empty(), false);

    /** The lost updates of every entry. */
    public static final JournalFilter LOST = new JournalFilter(Optional.empty(), Optional.empty(), true);

    public JournalFilter {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        if (name.isPresent() && scope.isEmpty()) {
            throw new IllegalArgumentException("an entry's name picks records only with its scope");
        }
    }

    /** The records of {@code scope}'s entries. */
    public static JournalFilter scope(Scope scope) {
        return new JournalFilter(Optional.of(scope), Optional.empty(), false);
    }

    /** The records of the entry {@code scope/name}: its history. */
    public static JournalFilter entry(Scope scope, String name) {
        return new JournalFilter(Optional.of(scope), Optional.of(name), false);
    }

    /** Whether this picks one entry's records, which a store reads over an index of its own. */
    public boolean oneEntry() {
        return name.isPresent();
    }

    /** Whether this picks every record. */
    public boolean all() {
        return scope.isEmpty() && !lostOnly;
    }

    /** Whether {@code record} is one this picks. */
    public boolean picks(JournalRecord record) {
        if (all()) {
            return true;
        }
        if (!(record instanceof Change c)) {
            return false; // another tier's note: no scope, no lost update
        }
        return scope.map(s -> s.equals(c.entry().scope())).orElse(true)
                && name.map(n -> n.equals(c.entry().name())).orElse(true)
                && (!lostOnly || c.forked());
    }
}
