package dev.omcp.app.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The whole system at once: every arrow of ARCHITECTURE.md points inward. */
@AnalyzeClasses(packages = "dev.omcp",
        importOptions = {ImportOption.DoNotIncludeTests.class, SystemArchitectureTest.DoNotIncludeTestJars.class})
class SystemArchitectureTest {
    /**
     * Leaves out the test-jars on the test classpath (omcp-adapters-http's shared WebSocket fixtures):
     * test code, which {@link ImportOption.DoNotIncludeTests} only recognises in a test-classes directory.
     */
    static final class DoNotIncludeTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar!");
        }
    }

    @ArchTest
    static final ArchRule layers = layeredArchitecture()
            .consideringOnlyDependenciesInAnyPackage("dev.omcp..")
            // a layer may be empty while its module is young; the arrows still apply once it fills
            .withOptionalLayers(true)
            .layer("Launcher").definedBy("dev.omcp.app..")
            .layer("HttpAdapter").definedBy("dev.omcp.adapters.http..")
            .layer("StorageAdapter").definedBy("dev.omcp.adapters.storage..")
            .layer("Connectors").definedBy("dev.omcp.connectors..")
            .layer("Testkit").definedBy("dev.omcp.testkit..")
            .layer("Core").definedBy("dev.omcp.core..")
            .layer("Ports").definedBy("dev.omcp.ports..")
            .layer("Sdk").definedBy("dev.omcp.sdk..")
            .whereLayer("Launcher").mayNotBeAccessedByAnyLayer()
            .whereLayer("HttpAdapter").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("StorageAdapter").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("Connectors").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("Testkit").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("Core").mayOnlyBeAccessedByLayers("Launcher")
            .whereLayer("Ports").mayOnlyBeAccessedByLayers("Launcher", "HttpAdapter", "StorageAdapter", "Connectors", "Testkit", "Core")
            .whereLayer("Sdk").mayOnlyBeAccessedByLayers("Launcher", "HttpAdapter", "StorageAdapter", "Connectors", "Testkit", "Core", "Ports");

    @ArchTest
    static final ArchRule onlyTheSettingsReaderReadsTheEnvironment = noClasses()
            .that().doNotHaveFullyQualifiedName("dev.omcp.app.settings.SettingsReader")
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class)
            .because("settings are parsed once, in one place (CONVENTIONS.md)");

    @ArchTest
    static final ArchRule jsonPOnlyThroughTheCachedProvider = noClasses()
            .that().resideInAPackage("dev.omcp..")
            .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                    "a static method of jakarta.json.Json",
                    call -> call.getTargetOwner().getName().equals("jakarta.json.Json")))
            .because("each jakarta.json.Json call looks the provider up through the ServiceLoader (tens of "
                    + "microseconds); use dev.omcp.sdk.json.Jsonp, which caches it");
}
