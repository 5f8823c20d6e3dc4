package dev.engram.delivery;

import static dev.engram.delivery.JacksonReach.ENGRAM;
import static dev.engram.delivery.JacksonReach.classValues;
import static dev.engram.delivery.JacksonReach.closure;
import static dev.engram.delivery.JacksonReach.jacksonAnnotations;
import static dev.engram.delivery.JacksonReach.NOT_JSON;
import static dev.engram.delivery.JacksonReach.jsonTypes;
import static dev.engram.delivery.JacksonReach.registered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.engram.llm.Tiktoken;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a native image of Engram must be told, checked against the code: in a native image only the classes
 * registered for reflection can be read and written by Jackson, and only the resources listed in
 * {@code quarkus.native.resources.includes} (or included by an extension) can be loaded by name. Nothing here
 * needs native-image: it reads the bytecode (ArchUnit) and the configuration.
 *
 * <p>The types Jackson sees reflectively, by this rule: every record of the REST API ({@code dev.engram.api..},
 * whose records are its bodies and replies); every Engram type named in a JAX-RS resource method's signature
 * (with its type arguments); every Engram class whose class object a class that calls Jackson's mapper refers to
 * ({@code readValue(json, Step.class)}); every class a Jackson annotation names ({@code using = ...}); and, from
 * those, everything Jackson reaches: a record's components and a class's fields and getters, with type arguments
 * and array components, and every subtype of an interface or abstract class. A type counts as registered when it
 * carries {@link RegisterForReflection} itself or is among the targets or class names of one.
 */
class NativeRegistrationsTest {

    /** Services Quarkus finds and registers itself at build time (configuration). */
    private static final List<String> SERVICES_QUARKUS_REGISTERS = List.of("io.smallrye.config.",
            "org.eclipse.microprofile.config.");

    @Test
    void everyTypeJacksonSeesReflectivelyIsRegistered() {
        Set<String> registered = registered();
        Set<String> missing = new TreeSet<>();
        for (JavaClass type : jsonTypes()) {
            if (!registered.contains(type.getName())) {
                missing.add(type.getName());
            }
        }
        assertEquals(Set.of(), missing, "Jackson reads or writes these reflectively, which a native image refuses "
                + "unless they are registered: add them to dev.engram.nativeimage.JsonTypes' targets (or annotate them "
                + "@RegisterForReflection); a record of the API that never meets Jackson goes in NOT_JSON here");
    }

    @Test
    void theRuleFindsTheTypesItIsMeantToFind() {
        Set<String> found = jsonTypes().stream().map(JavaClass::getName).collect(Collectors.toSet());
        for (String expected : List.of("dev.engram.entries.rest.ChangeJson", "dev.engram.memories.rest.BankResource$SlotJson",
                "dev.engram.access.rest.KeysResource$IssueBody", "dev.engram.contexts.FillCheck",
                "dev.engram.contexts.Step", "dev.engram.contexts.ContextConfig$Memory",
                "dev.engram.contexts.persistence.ContextRecords$StoredState")) {
            assertTrue(found.contains(expected), expected + " should be found as a JSON type; the rule broke");
        }
        for (String notJson : NOT_JSON.keySet()) {
            assertFalse(found.contains(notJson), notJson + " is in NOT_JSON but found as a JSON type");
        }
    }

    @Test
    void everyRegistrationNamesAClassThatExists() {
        for (String name : registered()) {
            try {
                Class.forName(name, false, getClass().getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError(name + " is registered for reflection but is not on the class path", e);
            }
        }
    }

    @Test
    void ollamasJsonTypesAreRegistered() {
        // langchain4j-ollama ships no native-image configuration; its client (de)serialises these with Jackson.
        String ollama = "dev.langchain4j.model.ollama";
        JavaClasses classes = new ClassFileImporter().importPackages(ollama);
        Deque<JavaClass> todo = new ArrayDeque<>();
        for (JavaClass c : classes) {
            List<JavaAnnotation<?>> annotations = jacksonAnnotations(c);
            if (c.getPackageName().equals(ollama) && !annotations.isEmpty()) {
                todo.add(c);
                annotations.forEach(a -> a.getProperties().values().forEach(v -> classValues(v, todo)));
            }
        }
        Set<String> found = closure(todo, c -> c.getPackageName().equals(ollama));
        for (String expected : List.of("OllamaChatRequest", "OllamaChatResponse", "FormatSerializer")) {
            assertTrue(found.contains(ollama + "." + expected), expected + " should be found: " + found);
        }
        Set<String> missing = new TreeSet<>(found);
        missing.removeAll(registered());
        assertEquals(Set.of(), missing, "add these to dev.engram.llm.NativeTypes' classNames");
    }

    @Test
    void theOtherChatClientsShipTheirOwnNativeConfiguration() {
        for (String library : List.of("langchain4j-open-ai", "langchain4j-anthropic")) {
            String config = "META-INF/native-image/dev.langchain4j/" + library + "/reflect-config.json";
            assertNotNull(getClass().getClassLoader().getResource(config), library + " no longer ships " + config
                    + ": register its JSON types in dev.engram.llm.NativeTypes as Ollama's are");
        }
    }

    @Test
    void everyServiceFileIsIncludedAndItsProvidersRegistered() throws IOException {
        Map<String, List<String>> services = new TreeMap<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/META-INF/services"))) {
            for (Path file : files.toList()) {
                services.put(file.getFileName().toString(), providers(Files.readString(file)));
            }
        }
        for (Path jar : classPathJars(name -> name.contains("langchain4j"))) {
            try (JarFile j = new JarFile(jar.toFile())) {
                for (var e : Collections.list(j.entries())) {
                    if (e.getName().startsWith("META-INF/services/") && !e.isDirectory()) {
                        try (InputStream in = j.getInputStream(e)) {
                            services.put(e.getName().substring("META-INF/services/".length()),
                                    providers(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                        }
                    }
                }
            }
        }
        assertTrue(services.containsKey("dev.engram.contexts.tokens.Tokenizers"), "Tiktoken's service file: " + services);
        Set<String> registered = registered();
        for (var service : services.entrySet()) {
            if (SERVICES_QUARKUS_REGISTERS.stream().anyMatch(service.getKey()::startsWith)) {
                continue;
            }
            String resource = "META-INF/services/" + service.getKey();
            assertTrue(included(resource), resource + " is read by a ServiceLoader at run time: add it to "
                    + "quarkus.native.resources.includes");
            for (String provider : service.getValue()) {
                assertTrue(registered.contains(provider), provider + " is created by a ServiceLoader, by reflection: "
                        + "register it in dev.engram.llm.NativeTypes");
            }
        }
    }

    @Test
    void theTokenizersEncodingsAreIncluded() {
        for (String name : new Tiktoken().names()) {
            String resource = "com/knuddels/jtokkit/" + name.substring("tiktoken/".length()) + ".tiktoken";
            assertNotNull(getClass().getClassLoader().getResource(resource), resource + " is not where jtokkit "
                    + "keeps " + name);
            assertTrue(included(resource), resource + " (" + name + ") is loaded by name at run time: add it to "
                    + "quarkus.native.resources.includes");
        }
    }

    @Test
    void nothingOfEngramLoadsAResourceByName() {
        // A new getResource would need its name in quarkus.native.resources.includes (and a line in this test).
        // ShippedMigrations reads db/migration, which the Flyway extension includes (the test below); in a native
        // image it cannot list them and Flyway runs at every start, as it did before.
        List<String> loads = new ArrayList<>();
        for (JavaClass c : ENGRAM) {
            if (c.getName().equals("dev.engram.persistence.ShippedMigrations")) {
                continue;
            }
            c.getMethodCallsFromSelf().stream()
                    .filter(call -> call.getName().startsWith("getResource")
                            && (call.getTargetOwner().isEquivalentTo(Class.class)
                                    || call.getTargetOwner().isAssignableTo(ClassLoader.class)))
                    .forEach(call -> loads.add(call.getDescription()));
        }
        assertEquals(List.of(), loads);
    }

    @Test
    void flywaysMigrationsAreWhereTheExtensionIncludesThem() throws IOException {
        // The Flyway extension lists quarkus.flyway.locations (default db/migration) at build time and includes
        // every migration it finds in the native image; a location outside the class path would escape it.
        Properties config = applicationProperties();
        String locations = config.getProperty("quarkus.flyway.locations", "db/migration");
        assertEquals("db/migration", locations);
        URL dir = getClass().getClassLoader().getResource("db/migration");
        assertNotNull(dir);
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")));
        }
    }

    @Test
    void theIncludesMatchAsGlobs() {
        assertTrue(glob("com/knuddels/jtokkit/*.tiktoken").matcher("com/knuddels/jtokkit/a.tiktoken").matches());
        assertFalse(glob("com/*.tiktoken").matcher("com/knuddels/a.tiktoken").matches());
        assertTrue(glob("com/**").matcher("com/knuddels/a.tiktoken").matches());
    }

    private static boolean included(String resource) {
        String includes = applicationProperties().getProperty("quarkus.native.resources.includes", "");
        return Arrays.stream(includes.split(",")).map(String::trim).filter(p -> !p.isEmpty())
                .anyMatch(p -> glob(p).matcher(resource).matches());
    }

    /** A pattern of quarkus.native.resources.includes as a regex: {@code *} within a directory, {@code **} across. */
    static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char ch = glob.charAt(i);
            if (ch == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (ch == '*') {
                regex.append("[^/]*");
            } else if (ch == '?') {
                regex.append("[^/]");
            } else {
                regex.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    static Properties applicationProperties() {
        Properties p = new Properties();
        try (InputStream in = NativeRegistrationsTest.class.getClassLoader()
                .getResourceAsStream("application.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return p;
    }

    private static List<String> providers(String serviceFile) {
        return serviceFile.lines().map(l -> l.replaceAll("#.*", "").trim()).filter(l -> !l.isEmpty()).toList();
    }

    private static List<Path> classPathJars(Predicate<String> name) {
        List<Path> jars = new ArrayList<>();
        try {
            Enumeration<URL> manifests = NativeRegistrationsTest.class.getClassLoader()
                    .getResources("META-INF/MANIFEST.MF");
            for (URL m : Collections.list(manifests)) {
                String u = m.toString();
                if (u.startsWith("jar:file:") && name.test(u)) {
                    jars.add(Path.of(java.net.URI.create(u.substring(4, u.indexOf("!/")))));
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertFalse(jars.isEmpty(), "no jar on the class path matched");
        return jars;
    }
}
