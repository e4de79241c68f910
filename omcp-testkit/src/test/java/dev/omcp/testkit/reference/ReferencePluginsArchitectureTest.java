package dev.omcp.testkit.reference;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reference plugins are examples for connector authors: they use the SDK, jakarta.json, SLF4J and
 * the JDK only, which is exactly what a plugin's class loader exposes.
 */
class ReferencePluginsArchitectureTest {

    @ParameterizedTest
    @ValueSource(strings = {"tempo", "zipkin"})
    void referencePluginsDependOnlyOnWhatThePluginClassLoaderExposes(String name) {
        JavaClasses plugin = new ClassFileImporter().importPath(ReferencePlugins.root().resolve("classes").resolve(name));
        classes().that().resideInAPackage("dev.omcp.plugins." + name + "..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(
                        "dev.omcp.plugins." + name + "..", "dev.omcp.sdk..", "jakarta.json..", "org.slf4j..", "java..")
                .because("a plugin's class loader exposes only the SDK, jakarta.json and SLF4J besides the JDK")
                .check(plugin);
    }
}
