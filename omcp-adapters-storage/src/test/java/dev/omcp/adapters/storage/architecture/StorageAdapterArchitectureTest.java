package dev.omcp.adapters.storage.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.omcp.adapters.storage.plugins.StaticConnectorHub;

/** ARCHITECTURE.md rules 4 and 5 for the storage adapter. */
@AnalyzeClasses(packages = "dev.omcp.adapters.storage", importOptions = ImportOption.DoNotIncludeTests.class)
class StorageAdapterArchitectureTest {
    @ArchTest
    static final ArchRule speaksOnlyThroughPorts = noClasses()
            .that().resideInAPackage("dev.omcp.adapters.storage..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.omcp.core..", "dev.omcp.adapters.http..", "dev.omcp.connectors..", "dev.omcp.app..", "dev.omcp.testkit..")
            .because("adapters depend on ports, never on the core, on each other or on the launcher");

    @ArchTest
    static final ArchRule noEnvironment = noClasses()
            .that().resideInAPackage("dev.omcp.adapters.storage..")
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class);

    /** spec 1.5: loading plugins needs no network; only the hub client may fetch anything. */
    @ArchTest
    static final ArchRule pluginLoadingUsesNoNetwork = noClasses()
            .that().resideInAPackage("dev.omcp.adapters.storage.plugins..")
            // the hub client with its nested classes (the bounded body it downloads into)
            .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(StaticConnectorHub.class)))
            .should().dependOnClassesThat().resideInAPackage("java.net.http..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.Socket")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.HttpURLConnection")
            .orShould().callMethod(java.net.URL.class, "openConnection")
            .orShould().callMethod(java.net.URL.class, "openStream")
            .because("plugins load offline (spec 1.5, 5.8); fetching is the hub client's job");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.omcp.adapters.storage.(**)").should().beFreeOfCycles();
}
