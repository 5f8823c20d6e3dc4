package dev.engram.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each SQL function has one current definition, in a repeatable migration (R__, applied after every V and again when
 * it changes): the R files are the ones listed in {@code repeatable-migrations.properties}, each defines exactly the
 * functions listed for it and nothing but functions, and every function a V file creates (and no later V file drops)
 * is redefined by one.
 */
class RepeatableMigrationsTest {

    private static final Pattern NOT_A_FUNCTION = Pattern.compile("(?im)^\\s*(CREATE\\s+(TABLE|INDEX|TRIGGER|SEQUENCE"
            + "|EXTENSION)|ALTER|DROP|INSERT|UPDATE\\s+\\w+\\s+SET|DELETE)\\b");

    /** A V file's statements that create or drop a function, in their order. */
    private static final Pattern CREATE_OR_DROP = Pattern.compile(
            "(?i)\\b(CREATE|DROP)\\s+(?:OR\\s+REPLACE\\s+)?FUNCTION\\s+(?:IF\\s+EXISTS\\s+)?(\\w+)\\s*\\(");

    private static Map<String, Integer> shipped() {
        return ShippedMigrations.read(RepeatableMigrationsTest.class.getClassLoader()).orElseThrow();
    }

    @Test
    void theRepeatableMigrationsAreTheListedOnes() {
        Set<String> repeatable = new TreeSet<>();
        shipped().keySet().stream().filter(k -> k.startsWith("R__")).forEach(repeatable::add);
        assertEquals(FunctionScripts.expected().keySet(), repeatable);
    }

    @Test
    void eachDefinesItsFunctionsAndNothingElse() {
        FunctionScripts.expected().forEach((file, functions) -> {
            String script = FunctionScripts.script(file);
            assertEquals(functions, List.copyOf(FunctionScripts.functions(script).keySet()), file);
            assertFalse(FunctionScripts.createsWithoutReplace(script), file + " must CREATE OR REPLACE");
            String outside = script.replaceAll("(?s)\\$\\$.*?\\$\\$", "");
            assertFalse(NOT_A_FUNCTION.matcher(outside).find(), file + " holds a statement that is not a function's");
        });
    }

    @Test
    void noFunctionHasTwoCurrentDefinitions() {
        List<String> all = new ArrayList<>();
        FunctionScripts.expected().values().forEach(all::addAll);
        assertEquals(all.size(), new TreeSet<>(all).size(), all.toString());
    }

    @Test
    void everyFunctionOfTheVersionedMigrationsIsRedefined() {
        Set<String> repeatable = new TreeSet<>();
        FunctionScripts.expected().values().forEach(repeatable::addAll);
        Set<String> versioned = new TreeSet<>();
        Set<String> dropped = new TreeSet<>();
        List<String> inOrder = FunctionScripts.files().stream().filter(f -> f.startsWith("V"))
                .sorted(Comparator.comparingInt(f -> Integer.parseInt(f.substring(1, f.indexOf("__"))))).toList();
        for (String file : inOrder) {
            Matcher m = CREATE_OR_DROP.matcher(FunctionScripts.script(file));
            while (m.find()) {
                if (m.group(1).equalsIgnoreCase("DROP")) {
                    versioned.remove(m.group(2));
                    dropped.add(m.group(2));
                } else {
                    versioned.add(m.group(2));
                }
            }
        }
        // V19 and V22 drop the write functions' definitions without p_by, which the repeatable files create with it.
        assertTrue(versioned.contains("engram_erase"), versioned.toString());
        assertTrue(dropped.contains("engram_put"), "V19 drops engram_put's definition without p_by: " + dropped);
        assertTrue(dropped.contains("engram_memory_save"), "V22 drops engram_memory_save's without p_by: " + dropped);
        assertTrue(dropped.contains("engram_entries_added"), "V17 drops V16's trigger functions: " + dropped);
        assertTrue(repeatable.containsAll(versioned), "not redefined: " + minus(versioned, repeatable));
    }

    @Test
    void keysAsFlywayRecordsThem() {
        assertEquals("R__journal.sql", ShippedMigrations.key("db/migration/R__journal.sql"));
        assertEquals("7", ShippedMigrations.key("db/migration/V7__quotas.sql"));
        assertEquals(null, ShippedMigrations.key("db/migration/sub/R__journal.sql"));
        assertEquals(null, ShippedMigrations.key("db/migration/R__journal.txt"));
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }
}
