package dev.engram;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The shape of the house (README, "Layout"): every tier a pure core with its edges beside it, the cores free of
 * frameworks, no package in a cycle with another, and no tier's REST edge or store reaching into another tier's
 * persistence.
 */
class ArchitectureTest {

    private static final JavaClasses ENGRAM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.engram");

    /** The pure cores: what a tier is, without how it is served or stored. */
    static final String[] CORES = {
        "dev.engram.kernel..", "dev.engram.entries", "dev.engram.entries.render..", "dev.engram.entries.tools..",
        "dev.engram.memories", "dev.engram.memories.rank..", "dev.engram.memories.tools..",
        "dev.engram.contexts", "dev.engram.contexts.messages..", "dev.engram.contexts.tokens..",
        "dev.engram.contexts.cache..", "dev.engram.contexts.tools..", "dev.engram.access", "dev.engram.tools",
        "dev.engram.stores.files"};

    static final String[] FRAMEWORKS = {"jakarta..", "io.quarkus..", "io.smallrye..", "io.vertx..", "io.agroal..",
        "org.hibernate..", "com.fasterxml..", "org.eclipse.microprofile..", "org.jboss..", "io.micrometer..",
        "dev.langchain4j..", "java.sql..", "javax.sql..", "org.postgresql..", "org.flywaydb.."};

    /** The edges every tier may use; the cores use none of them. */
    static final String[] EDGES = {"dev.engram.rest..", "dev.engram.problems..", "dev.engram.mcp..",
        "dev.engram.ops..", "dev.engram.llm..", "dev.engram.persistence..", "dev.engram.journal..",
        "dev.engram.nativeimage..", "dev.engram.access.rest..", "dev.engram.access.persistence..",
        "dev.engram.entries.rest..", "dev.engram.entries.persistence..", "dev.engram.memories.rest..",
        "dev.engram.memories.persistence..", "dev.engram.contexts.app..", "dev.engram.contexts.rest..",
        "dev.engram.contexts.persistence..", "dev.engram.stores.rest..", "dev.engram.stores.files.rest..",
        "dev.engram.stores.files.persistence..", "dev.engram.tools.rest..", "dev.engram.tools.host..",
        "dev.engram.console.."};

    @Test
    void theCoresImportNoFramework() {
        noClasses().that().resideInAnyPackage(CORES)
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .check(ENGRAM);
    }

    @Test
    void theCoresDependOnNoEdge() {
        noClasses().that().resideInAnyPackage(CORES)
                .should().dependOnClassesThat().resideInAnyPackage(EDGES)
                .check(ENGRAM);
    }

    /** The model adapters serve the cores' ports (summarizer, reflector, embedder): no REST, store or MCP in them. */
    @Test
    void theModelAdaptersKnowOnlyTheCores() {
        noClasses().that().resideInAPackage("dev.engram.llm..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.engram.rest..", "dev.engram.problems..",
                        "dev.engram.mcp..", "dev.engram.persistence..", "dev.engram.journal..", "dev.engram.*.rest..",
                        "dev.engram.*.app..", "dev.engram.*.persistence..", "java.sql..", "javax.sql..")
                .check(ENGRAM);
    }

    /**
     * The entities (Hibernate ORM with Panache) are how rows are read, never what a tier hands on: only the
     * persistence packages use them, and answer with the core's values.
     */
    @Test
    void noEntityIsUsedOutsidePersistence() {
        noClasses().that().resideOutsideOfPackages("dev.engram..persistence..")
                .should().dependOnClassesThat().areAnnotatedWith(jakarta.persistence.Entity.class)
                .check(ENGRAM);
    }

    @Test
    void noPackageIsInACycle() {
        slices().matching("dev.engram.(**)").should().beFreeOfCycles().check(ENGRAM);
    }

    @Test
    void aTiersRestEdgeUsesNoOtherTiersPersistence() {
        for (String tier : new String[] {"entries", "memories", "contexts"}) {
            String[] others = java.util.Arrays.stream(new String[] {"entries", "memories", "contexts", "access"})
                    .filter(t -> !t.equals(tier)).map(t -> "dev.engram." + t + ".persistence..")
                    .toArray(String[]::new);
            noClasses().that().resideInAnyPackage("dev.engram." + tier + ".rest..", "dev.engram." + tier + ".app..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .check(ENGRAM);
        }
    }

    /** What the tiers' stores share (the journal's notes, the key lock, Sql) lives in journal or persistence. */
    @Test
    void aTiersPersistenceUsesNoOtherTiersPersistence() {
        String[] tiers = {"entries", "memories", "contexts", "access"};
        for (String tier : tiers) {
            String[] others = java.util.Arrays.stream(tiers).filter(t -> !t.equals(tier))
                    .map(t -> "dev.engram." + t + ".persistence..").toArray(String[]::new);
            noClasses().that().resideInAPackage("dev.engram." + tier + ".persistence..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .check(ENGRAM);
        }
    }
}
