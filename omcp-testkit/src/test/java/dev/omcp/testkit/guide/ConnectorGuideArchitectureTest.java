package dev.omcp.testkit.guide;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The example project of docs/writing-a-connector.md uses only what its author has: the plugin's
 * classes only what a plugin class loader exposes, its other classes also the test kit and JUnit.
 */
class ConnectorGuideArchitectureTest {
    private static final JavaClasses EXAMPLE = new ClassFileImporter().importPackages(AuthorProject.EXAMPLE_PACKAGE);
    private static final DescribedPredicate<JavaClass> PLUGIN_CLASS = DescribedPredicate.describe("a class of the plugin's JAR",
            type -> AuthorProject.PLUGIN_CLASSES.contains(type.getName().replaceFirst("\\$.*", "")));

    @Test
    void thePluginsClasses_useOnlyWhatAPluginClassLoaderExposes() {
        classes().that(PLUGIN_CLASS)
                .should().onlyDependOnClassesThat(PLUGIN_CLASS.or(JavaClass.Predicates.resideInAnyPackage(
                        "dev.omcp.sdk..", "jakarta.json..", "org.slf4j..", "java..")))
                .because("the packed JAR holds only the plugin's classes, and its class loader exposes the SDK, jakarta.json and SLF4J")
                .check(EXAMPLE);
    }

    @Test
    void theProjectsOtherClasses_useOnlyTheSdkTheTestKitAndJUnit() {
        classes().that(DescribedPredicate.not(PLUGIN_CLASS))
                .should().onlyDependOnClassesThat().resideInAnyPackage(AuthorProject.EXAMPLE_PACKAGE, "dev.omcp.sdk..",
                        "dev.omcp.testkit.connector..", "dev.omcp.testkit.packaging..", "jakarta.json..", "org.junit..", "java..",
                        "com.sun.net.httpserver..")
                .because("a connector author depends on the SDK and the connector test kit; the JDK's HTTP server records the mock")
                .check(EXAMPLE);
    }
}
