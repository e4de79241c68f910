package dev.omcp.adapters.http.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/** ARCHITECTURE.md rules 4 and 5 for the HTTP adapter. */
@AnalyzeClasses(packages = "dev.omcp.adapters.http", importOptions = ImportOption.DoNotIncludeTests.class)
class HttpAdapterArchitectureTest {
    @ArchTest
    static final ArchRule speaksOnlyThroughPorts = noClasses()
            .that().resideInAPackage("dev.omcp.adapters.http..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.omcp.core..", "dev.omcp.adapters.storage..", "dev.omcp.connectors..", "dev.omcp.app..", "dev.omcp.testkit..")
            .because("adapters depend on ports, never on the core, on each other or on the launcher");

    @ArchTest
    static final ArchRule noEnvironment = noClasses()
            .that().resideInAPackage("dev.omcp.adapters.http..")
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class);

    @ArchTest
    static final ArchRule neverMixesJsonStacks = classes()
            .that().resideInAPackage("dev.omcp.adapters.http..")
            .should(new ArchCondition<JavaClass>("not use both Jackson and jakarta.json") {
                @Override
                public void check(JavaClass item, ConditionEvents events) {
                    boolean jackson = item.getDirectDependenciesFromSelf().stream()
                            .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("com.fasterxml.jackson"));
                    boolean jsonp = item.getDirectDependenciesFromSelf().stream()
                            .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("jakarta.json"));
                    if (jackson && jsonp) {
                        events.add(SimpleConditionEvent.violated(item, item.getName() + " uses both Jackson and jakarta.json"));
                    }
                }
            })
            .because("Jackson and jakarta.json never meet inside one class (ARCHITECTURE.md, JSON)");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.omcp.adapters.http.(**)").should().beFreeOfCycles();
}
