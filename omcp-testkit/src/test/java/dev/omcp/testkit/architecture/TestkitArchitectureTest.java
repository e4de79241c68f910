package dev.omcp.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The test kit depends on ports and the SDK, never on the core, the adapters or the launcher. */
@AnalyzeClasses(packages = "dev.omcp.testkit", importOptions = ImportOption.DoNotIncludeTests.class)
class TestkitArchitectureTest {
    @ArchTest
    static final ArchRule onlyPortsAndSdk = noClasses()
            .that().resideInAPackage("dev.omcp.testkit..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.omcp.core..", "dev.omcp.adapters..", "dev.omcp.connectors..", "dev.omcp.app..");
}
