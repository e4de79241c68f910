package dev.omcp.sdk.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** ARCHITECTURE.md rule 1: a connector author adds this one artifact and nothing else. */
@AnalyzeClasses(packages = "dev.omcp.sdk", importOptions = ImportOption.DoNotIncludeTests.class)
class SdkArchitectureTest {
    @ArchTest
    static final ArchRule dependsOnlyOnJsonAndLogging = classes()
            .that().resideInAPackage("dev.omcp.sdk..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dev.omcp.sdk..", "java..", "jakarta.json..", "org.slf4j..")
            .because("connector authors depend on the SDK alone, which brings only jakarta.json-api and slf4j-api");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.omcp.sdk.(**)").should().beFreeOfCycles();
}
