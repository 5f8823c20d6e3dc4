package dev.engram.console;

import dev.engram.access.Grant;
import dev.engram.access.KeyRecord;
import dev.engram.access.Role;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A key as the keys page's form holds it: its name and {@value #ROWS} rows of a grant each (stores, role, scopes and
 * read-only scopes, a list of scopes separated by commas or spaces), a row left without stores or scopes unused.
 * Kept as typed, so that a refused form comes back as it was sent.
 */
public record KeyDraft(String name, List<Row> rows) {

    /** The grant rows the form offers. */
    public static final int ROWS = 3;

    /** One grant row as typed. */
    public record Row(int index, String stores, String role, String scopes, String readScopes) {

        /** The row's number on the form, from 1. */
        public int number() {
            return index + 1;
        }

        /** Whether the row was left empty. */
        boolean unused() {
            return stores.isBlank() && scopes.isBlank() && readScopes.isBlank();
        }
    }

    public KeyDraft {
        name = name == null ? "" : name;
        rows = List.copyOf(rows);
    }

    /** The empty form: no name, every row unused with role read. */
    public static KeyDraft empty() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Row(i, "", "read", "", ""));
        }
        return new KeyDraft("", rows);
    }

    /** The form as sent: each field's values in the rows' order, a missing value blank. */
    static KeyDraft of(String name, List<String> stores, List<String> roles, List<String> scopes,
            List<String> readScopes) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(new Row(i, at(stores, i), at(roles, i).isEmpty() ? "read" : at(roles, i), at(scopes, i),
                    at(readScopes, i)));
        }
        return new KeyDraft(name == null ? "" : name.strip(), rows);
    }

    /**
     * The grants of the rows used, each checked as the keys API checks a grant; {@link Invalid} naming the row (its
     * field {@code grants.N.member}) and saying what to change.
     */
    List<Grant> grants() {
        List<Grant> grants = new ArrayList<>();
        for (Row r : rows) {
            if (r.unused()) {
                continue;
            }
            try {
                grants.add(new Grant(r.stores().strip(), Role.parse(r.role(), "role"), scopes(r.scopes()),
                        scopes(r.readScopes())));
            } catch (Invalid e) {
                throw new Invalid(e.rule(), "grants." + r.index() + "." + e.field(), "Grant " + (r.index() + 1)
                        + ": " + e.getMessage());
            }
        }
        KeyRecord.checkGrants(grants);
        return grants;
    }

    private static List<Scope> scopes(String typed) {
        return Arrays.stream(typed.split("[,\\s]+")).filter(s -> !s.isEmpty()).map(Scope::new).toList();
    }

    private static String at(List<String> values, int i) {
        return values == null || i >= values.size() || values.get(i) == null ? "" : values.get(i);
    }
}
