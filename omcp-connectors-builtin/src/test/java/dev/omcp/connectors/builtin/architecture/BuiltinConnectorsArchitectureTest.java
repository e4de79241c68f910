package dev.omcp.connectors.builtin.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** ARCHITECTURE.md rule 4 for the builtin connectors: SDK and ports only. */
@AnalyzeClasses(packages = "dev.omcp.connectors.builtin", importOptions = ImportOption.DoNotIncludeTests.class)
class BuiltinConnectorsArchitectureTest {
    @ArchTest
    static final ArchRule speaksOnlyThroughTheSdkAndPorts = noClasses()
            .that().resideInAPackage("dev.omcp.connectors.builtin..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.omcp.core..", "dev.omcp.adapters..", "dev.omcp.app..", "dev.omcp.testkit..")
            .because("builtin connectors are adapters: they see the SDK and the ports only");

    @ArchTest
    static final ArchRule noEnvironment = noClasses()
            .that().resideInAPackage("dev.omcp.connectors.builtin..")
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class);

    @ArchTest
    static final ArchRule jacksonAndJsonpNeverMeetInOneClass = noClasses()
            .that().resideInAPackage("dev.omcp.connectors.builtin..")
            .and(DescribedPredicate.describe("use Jackson", (JavaClass c) -> c.getDirectDependenciesFromSelf().stream()
                    .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("com.fasterxml.jackson"))))
            .should().dependOnClassesThat().resideInAPackage("jakarta.json..")
            .because("Jackson reads large backend answers into records, jakarta.json is the SDK's JSON; they never meet "
                    + "inside one class (ARCHITECTURE.md, JSON)");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.omcp.connectors.builtin.(**)").should().beFreeOfCycles();
}
