package dev.engram.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each SQL function has one current definition, in a repeatable migration (R__, applied after every V and again when
 * it changes): the R files are the ones listed in {@code repeatable-migrations.properties}, each defines exactly the
 * functions listed for it and nothing but functions, and every function a V file creates is redefined by one.
 */
class RepeatableMigrationsTest {

    private static final Pattern NOT_A_FUNCTION = Pattern.compile("(?im)^\\s*(CREATE\\s+(TABLE|INDEX|TRIGGER|SEQUENCE"
            + "|EXTENSION)|ALTER|DROP|INSERT|UPDATE\\s+\\w+\\s+SET|DELETE)\\b");

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
        for (String file : FunctionScripts.files()) {
            if (file.startsWith("V")) {
                versioned.addAll(FunctionScripts.functions(FunctionScripts.script(file)).keySet());
            }
        }
        assertTrue(versioned.contains("engram_put") && versioned.contains("engram_memory_save"), versioned.toString());
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
