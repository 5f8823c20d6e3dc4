package dev.engram.delivery;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The types Jackson sees reflectively in Engram's code, found by the rule {@link NativeRegistrationsTest} states,
 * and the classes registered for reflection: what a native image must be told and what it is.
 */
final class JacksonReach {

    static final JavaClasses ENGRAM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.engram");

    private JacksonReach() {
    }

    /** Records of the API packages that never meet Jackson: values passed between its classes. */
    static final Map<String, String> NOT_JSON = Map.ofEntries(
            Map.entry("dev.engram.access.rest.JwtVerifier$Verified", "a verified token's caller and expiry"),
            Map.entry("dev.engram.access.rest.Tokens$Known", "the token cache's entry"),
            Map.entry("dev.engram.rest.RestJsonWriter$Declared", "a declared generic type and the writer made for it"),
            Map.entry("dev.engram.contexts.rest.CompactResource$Compacted",
                    "compacted messages and whether a model summarized them"),
            Map.entry("dev.engram.contexts.app.ContextCompactions$Asked",
                    "which model a compaction asked, for its metrics"),
            Map.entry("dev.engram.contexts.app.ContextCompactions$Landed", "a compaction's answer until it is counted"),
            Map.entry("dev.engram.contexts.app.ContextAppends$Options", "an append's query options"),
            Map.entry("dev.engram.contexts.app.ContextAppends$Answer",
                    "an append's answer and whether it is a retry's"),
            Map.entry("dev.engram.contexts.app.Conversations$Read",
                    "messages parsed from a provider's form, with the JSON of each"),
            Map.entry("dev.engram.tools.rest.RestToolCaller$Call",
                    "a REST tool call's body, key header and key reader"),
            Map.entry("dev.engram.access.rest.ConsoleDoor$Signed", "a console session and the caller it is now"),
            Map.entry("dev.engram.entries.rest.RenderRequests$Asked",
                    "a render request read from its parameters, for the resource or a console page"));

    /** The REST edge's packages (what was {@code dev.engram.api}): the shared one and every tier's. */
    static boolean restEdge(JavaClass c) {
        String pkg = c.getPackageName();
        return pkg.equals("dev.engram.rest") || pkg.equals("dev.engram.problems") || pkg.endsWith(".rest")
                || pkg.endsWith(".app") || c.getName().startsWith("dev.engram.mcp.McpSessions")
                || c.getName().startsWith("dev.engram.mcp.McpStreams");
    }

    /** The JSON types by the rule in the class comment. */
    static Set<JavaClass> jsonTypes() {
        Deque<JavaClass> roots = new ArrayDeque<>();
        for (JavaClass c : ENGRAM) {
            if (restEdge(c) && c.isRecord() && !NOT_JSON.containsKey(c.getName())) {
                roots.add(c);
            }
            if (callsJackson(c)) {
                c.getReferencedClassObjects().forEach(r -> roots.add(r.getRawType().getBaseComponentType()));
            }
            for (JavaMethod m : c.getMethods()) {
                if (m.getAnnotations().stream().anyMatch(a -> a.getRawType().getPackageName().equals("jakarta.ws.rs")
                        && a.getRawType().isAnnotatedWith("jakarta.ws.rs.HttpMethod"))) {
                    roots.addAll(m.getReturnType().getAllInvolvedRawTypes());
                    m.getParameterTypes().forEach(t -> roots.addAll(t.getAllInvolvedRawTypes()));
                }
            }
            for (JavaAnnotation<?> a : jacksonAnnotations(c)) {
                a.getProperties().values().forEach(v -> classValues(v, roots));
            }
        }
        Set<String> names = closure(roots, c -> c.getPackageName().startsWith("dev.engram")
                && !NOT_JSON.containsKey(c.getName()));
        return ENGRAM.stream().filter(c -> names.contains(c.getName())).collect(Collectors.toSet());
    }

    /** The names of {@code roots} and of every type Jackson reaches from them, among those {@code within} admits. */
    static Set<String> closure(Deque<JavaClass> roots, Predicate<JavaClass> within) {
        Set<String> seen = new TreeSet<>();
        Deque<JavaClass> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            JavaClass c = todo.pop().getBaseComponentType();
            if (!within.test(c) || c.isAnnotation() || !seen.add(c.getName())) {
                continue;
            }
            for (JavaField f : c.getFields()) {
                if (!f.getModifiers().contains(JavaModifier.STATIC)) {
                    todo.addAll(f.getType().getAllInvolvedRawTypes());
                }
            }
            for (JavaMethod m : c.getMethods()) {
                if (m.getModifiers().contains(JavaModifier.PUBLIC) && !m.getModifiers().contains(JavaModifier.STATIC)
                        && m.getRawParameterTypes().isEmpty() && m.getName().matches("(get|is)[A-Z].*")) {
                    todo.addAll(m.getReturnType().getAllInvolvedRawTypes());
                }
            }
            if (c.isInterface() || c.getModifiers().contains(JavaModifier.ABSTRACT)) {
                todo.addAll(c.getAllSubclasses());
            }
        }
        return seen;
    }

    private static boolean callsJackson(JavaClass c) {
        return c.getMethodCallsFromSelf().stream().anyMatch(call -> Stream.of(
                "com.fasterxml.jackson.databind.ObjectMapper", "com.fasterxml.jackson.databind.ObjectReader",
                "com.fasterxml.jackson.databind.ObjectWriter").anyMatch(call.getTargetOwner()::isAssignableTo));
    }

    /** The Jackson annotations on {@code c} and its members. */
    static List<JavaAnnotation<?>> jacksonAnnotations(JavaClass c) {
        List<JavaAnnotation<?>> found = new ArrayList<>();
        Stream.concat(Stream.of(c.getAnnotations()), Stream.<Collection<? extends JavaMember>>of(c.getFields(),
                c.getCodeUnits()).flatMap(Collection::stream).map(JavaMember::getAnnotations))
                .flatMap(Collection::stream)
                .filter(a -> a.getRawType().getPackageName().startsWith("com.fasterxml.jackson"))
                .forEach(found::add);
        for (JavaCodeUnit u : c.getCodeUnits()) {
            u.getParameters().forEach(p -> p.getAnnotations().stream()
                    .filter(a -> a.getRawType().getPackageName().startsWith("com.fasterxml.jackson"))
                    .forEach(found::add));
        }
        return found;
    }

    static void classValues(Object value, Collection<JavaClass> into) {
        if (value instanceof JavaClass c) {
            into.add(c);
        } else if (value instanceof Object[] values) {
            Arrays.stream(values).forEach(v -> classValues(v, into));
        }
    }

    /** The names of every class registered for reflection by an annotation on a class of Engram. */
    static Set<String> registered() {
        Set<String> names = new TreeSet<>();
        for (JavaClass c : ENGRAM) {
            var found = c.tryGetAnnotationOfType(RegisterForReflection.class.getName());
            if (found.isEmpty()) {
                continue;
            }
            JavaAnnotation<JavaClass> r = found.get();
            JavaClass[] targets = (JavaClass[]) r.get("targets").orElse(new JavaClass[0]);
            String[] classNames = (String[]) r.get("classNames").orElse(new String[0]);
            if (targets.length == 0 && classNames.length == 0) {
                names.add(c.getName());
            }
            Arrays.stream(targets).map(JavaClass::getName).forEach(names::add);
            names.addAll(Arrays.asList(classNames));
        }
        return names;
    }
}
