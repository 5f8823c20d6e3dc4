package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The decisions: what each kind of caller may do in a store, and how the scopes it asks for are narrowed. */
class StoreAccessTest {

    static final Caller OPERATOR = Caller.operator();
    static final Caller ADMIN_STAR = caller(Grant.of("*", Role.ADMIN));
    static final Caller STORE_ADMIN = caller(Grant.of("acme-*", Role.ADMIN));
    static final Caller WRITER = caller(Grant.of("acme-*", Role.WRITE));
    static final Caller READER = caller(Grant.of("acme-1", Role.READ));
    static final Caller LIMITED = caller(new Grant("acme-*", Role.WRITE, scopes("user"), scopes("rules")));
    static final Caller LIMITED_READER = caller(new Grant("acme-*", Role.READ, scopes("user"), scopes("rules")));
    static final Caller OTHER = caller(Grant.of("other-*", Role.ADMIN));
    static final Caller TWO_GRANTS = caller(new Grant("acme-*", Role.READ, scopes("user"), List.of()),
            new Grant("acme-1", Role.WRITE, scopes("project"), List.of()));

    static Caller caller(Grant... grants) {
        return new Caller("key_test", "test", List.of(grants), false);
    }

    static List<Scope> scopes(String... names) {
        return Arrays.stream(names).map(Scope::new).toList();
    }

    static Caller named(String name) {
        return switch (name) {
            case "operator" -> OPERATOR;
            case "admin-star" -> ADMIN_STAR;
            case "store-admin" -> STORE_ADMIN;
            case "writer" -> WRITER;
            case "reader" -> READER;
            case "limited" -> LIMITED;
            case "limited-reader" -> LIMITED_READER;
            case "other" -> OTHER;
            case "two-grants" -> TWO_GRANTS;
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** ok, 404 (the store does not exist for this caller) or 403 (it does, and the caller may not). */
    static String outcome(Runnable check) {
        try {
            check.run();
            return "ok";
        } catch (NotFound e) {
            return "404";
        } catch (Denied e) {
            return "403";
        }
    }

    @ParameterizedTest(name = "{0}: read user {1}, read project {2}, read rules {3}, write user {4}, write rules {5}, "
            + "write any {6}, read every {7}, administer {8}")
    @CsvSource({
            "operator,       ok,  ok,  ok,  ok,  ok,  ok,  ok,  ok",
            "admin-star,     ok,  ok,  ok,  ok,  ok,  ok,  ok,  ok",
            "store-admin,    ok,  ok,  ok,  ok,  ok,  ok,  ok,  ok",
            "writer,         ok,  ok,  ok,  ok,  ok,  ok,  ok,  403",
            "reader,         ok,  ok,  ok,  403, 403, 403, ok,  403",
            "limited,        ok,  403, ok,  ok,  403, ok,  403, 403",
            "limited-reader, ok,  403, ok,  403, 403, 403, 403, 403",
            "other,          404, 404, 404, 404, 404, 404, 404, 404",
            "two-grants,     ok,  ok,  403, 403, 403, ok,  403, 403",
    })
    void decisionsInStoreAcme1(String who, String readUser, String readProject, String readRules, String writeUser,
            String writeRules, String writeAny, String readEvery, String administer) {
        StoreAccess a = named(who).in("acme-1");
        List<String> actual = List.of(outcome(() -> a.checkRead(new Scope("user"))),
                outcome(() -> a.checkRead(new Scope("project"))), outcome(() -> a.checkRead(new Scope("rules"))),
                outcome(() -> a.checkWrite(new Scope("user"))), outcome(() -> a.checkWrite(new Scope("rules"))),
                outcome(a::checkWritesAny), outcome(a::checkReadsEvery), outcome(a::checkAdminister));
        assertEquals(List.of(readUser, readProject, readRules, writeUser, writeRules, writeAny, readEvery, administer),
                actual);
    }

    @Test
    void aGrantCoversOnlyTheStoresItsPatternMatches() {
        assertEquals("404", outcome(() -> READER.in("acme-2").checkRead(new Scope("user"))));
        assertEquals("ok", outcome(() -> TWO_GRANTS.in("acme-2").checkRead(new Scope("user"))));
        assertEquals("403", outcome(() -> TWO_GRANTS.in("acme-2").checkWrite(new Scope("project"))));
        assertEquals("404", outcome(() -> WRITER.in("acme").checkRead(new Scope("user"))));
    }

    @Test
    void aStoreNotReachedAnswersAsAStoreThatDoesNotExist() {
        NotFound e = assertThrows(NotFound.class, () -> OTHER.in("acme-1").checkRead(new Scope("user")));
        assertEquals(NotFound.store("acme-1").getMessage(), e.getMessage());
    }

    @Test
    void readsAreNarrowedNeverWidened() {
        assertEquals(List.of(), WRITER.in("acme-1").narrowReads(List.of()), "every scope stays every scope");
        assertEquals(scopes("rules", "user"), LIMITED.in("acme-1").narrowReads(List.of()),
                "no scope asked: the grant's readable scopes");
        assertEquals(scopes("user"), LIMITED.in("acme-1").narrowReads(scopes("user")));
        Denied d = assertThrows(Denied.class, () -> LIMITED.in("acme-1").narrowReads(scopes("user", "project")));
        assertEquals("read on scope project", d.needs());
        assertEquals(List.of("user"), d.writable());
        assertEquals(List.of("rules", "user"), d.readable());
        assertThrows(NotFound.class, () -> OTHER.in("acme-1").narrowReads(List.of()));
    }

    @Test
    void toolsAskedForOutsideTheGrantAreRefusedWithWhatItAllows() {
        LIMITED.in("acme-1").checkTools(scopes("user"), scopes("rules"));
        LIMITED.in("acme-1").checkTools(scopes("user"), List.of());
        Denied wider = assertThrows(Denied.class, () -> LIMITED.in("acme-1").checkTools(scopes("user", "project"),
                List.of()));
        assertEquals("This key may not use scope project as asked in store acme-1. It may write scope user and read "
                + "scopes rules, user. Ask for those scopes only.", wider.getMessage());
        Denied writeReadOnly = assertThrows(Denied.class, () -> LIMITED.in("acme-1").checkTools(scopes("rules"),
                List.of()));
        assertTrue(writeReadOnly.getMessage().contains("scope rules"), writeReadOnly.getMessage());
        Denied reader = assertThrows(Denied.class, () -> READER.in("acme-1").checkTools(scopes("user"), List.of()));
        assertTrue(reader.getMessage().endsWith("It may read every scope and write none. Ask for those scopes only."),
                reader.getMessage());
        assertThrows(NotFound.class, () -> OTHER.in("acme-1").checkTools(scopes("user"), List.of()));
    }

    @Test
    void theOperatorIsTheStartKeyOrAdminOnEveryStore() {
        assertTrue(OPERATOR.isOperator());
        assertTrue(ADMIN_STAR.isOperator());
        assertFalse(STORE_ADMIN.isOperator());
        assertFalse(caller(Grant.of("*", Role.WRITE)).isOperator());
        Denied d = assertThrows(Denied.class, () -> WRITER.checkOperator("Issuing keys"));
        assertEquals("operator", d.needs());
        ADMIN_STAR.checkOperator("Issuing keys");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "role unknown         | stores=a;role=owner            | role-unknown",
            "stores missing       | stores=;role=read              | stores-missing",
            "stores bad           | stores=A*;role=read            | stores-format",
            "scope bad            | stores=a;role=read;scopes=User | scope-format",
            "admin with scopes    | stores=a;role=admin;scopes=u   | admin-scopes",
            "read scopes alone    | stores=a;role=read;reads=u     | read-scopes-alone",
            "scope twice          | stores=a;role=write;scopes=u,u | scope-repeated",
            "scope in both        | stores=a;role=write;scopes=u;reads=u | scope-repeated",
    })
    void grantsThatBreakARuleAreRefused(String label, String spec, String rule) {
        Invalid e = assertThrows(Invalid.class, () -> grant(spec));
        assertEquals(rule, e.rule(), e.getMessage());
    }

    /** A grant from {@code stores=..;role=..;scopes=a,b;reads=c}. */
    static Grant grant(String spec) {
        String stores = "";
        String role = null;
        List<Scope> scopes = List.of();
        List<Scope> reads = List.of();
        for (String part : spec.split(";")) {
            String[] kv = part.split("=", 2);
            String v = kv.length > 1 ? kv[1] : "";
            switch (kv[0]) {
                case "stores" -> stores = v;
                case "role" -> role = v;
                case "scopes" -> scopes = scopes(v.split(","));
                case "reads" -> reads = scopes(v.split(","));
                default -> throw new IllegalArgumentException(part);
            }
        }
        return new Grant(stores, Role.parse(role, "role"), scopes, reads);
    }

    @Test
    void rolesIncludeTheOnesBelow() {
        Consumer<Role[]> chain = rs -> {
            for (int i = 0; i < rs.length; i++) {
                for (int j = 0; j < rs.length; j++) {
                    assertEquals(i >= j, rs[i].includes(rs[j]), rs[i] + " includes " + rs[j]);
                }
            }
        };
        chain.accept(new Role[] {Role.READ, Role.WRITE, Role.ADMIN});
        assertEquals(Role.WRITE, Role.parse("write", "role"));
        assertThrows(Invalid.class, () -> Role.parse("WRITE", "role"));
    }
}
