package dev.engram;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The core stays plain Java (memory, render, tools, access, recall, context), and no entity outside store.pg. */
class ArchitectureTest {

    private static final JavaClasses ENGRAM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.engram");

    @Test
    void theCoreImportsNoFramework() {
        noClasses().that().resideInAnyPackage("dev.engram.memory..", "dev.engram.render..", "dev.engram.tools..",
                "dev.engram.access..", "dev.engram.recall..", "dev.engram.context..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta..", "io.quarkus..", "io.smallrye..",
                        "io.vertx..", "org.hibernate..", "com.fasterxml..", "org.eclipse.microprofile..")
                .check(ENGRAM);
    }

    @Test
    void theCoreDependsOnNothingOutsideIt() {
        noClasses().that().resideInAnyPackage("dev.engram.memory..", "dev.engram.render..", "dev.engram.tools..",
                "dev.engram.access..", "dev.engram.recall..", "dev.engram.context..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.engram.api..", "dev.engram.store..",
                        "dev.engram.ops..", "dev.engram.mcp..")
                .check(ENGRAM);
    }

    @Test
    void theContextCoreCallsNoModelAndNoDatabase() {
        noClasses().that().resideInAPackage("dev.engram.context..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j..", "java.sql..", "javax.sql..")
                .check(ENGRAM);
    }

    @Test
    void entitiesStayInTheStore() {
        noClasses().that().resideOutsideOfPackage("dev.engram.store.pg..")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Row")
                .check(ENGRAM);
    }
}
