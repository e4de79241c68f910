package dev.omcp.ports.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** ARCHITECTURE.md rule 2: ports depend only on the SDK (and the JDK and jakarta.json). */
@AnalyzeClasses(packages = "dev.omcp.ports", importOptions = ImportOption.DoNotIncludeTests.class)
class PortsArchitectureTest {
    @ArchTest
    static final ArchRule dependsOnlyOnTheSdk = classes()
            .that().resideInAPackage("dev.omcp.ports..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dev.omcp.ports..", "dev.omcp.sdk..", "java..", "jakarta.json..")
            .because("ports are interfaces and domain values, free of any technology");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.omcp.ports.(**)").should().beFreeOfCycles();
}
