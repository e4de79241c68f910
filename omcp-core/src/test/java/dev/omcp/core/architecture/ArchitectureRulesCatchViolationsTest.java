package dev.omcp.core.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.omcp.core.archfixture.DeliberatelyBadCoreClass;
import org.junit.jupiter.api.Test;

/** Proves the core rules are not vacuous: each one fails on a class that breaks it. */
class ArchitectureRulesCatchViolationsTest {
    private final JavaClasses bad = new ClassFileImporter().importClasses(DeliberatelyBadCoreClass.class);

    @Test
    void wallClockRule_failsOnAClassThatReadsTheWallClock() {
        assertThatThrownBy(() -> CoreRules.NO_WALL_CLOCK.check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("currentTimeMillis")
                .hasMessageContaining("Instant.now");
    }

    @Test
    void environmentRule_failsOnAClassThatReadsTheEnvironment() {
        assertThatThrownBy(() -> CoreRules.NO_ENVIRONMENT.check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("getenv");
    }

    @Test
    void ioRule_failsOnAClassThatTouchesFiles() {
        assertThatThrownBy(() -> CoreRules.NO_FILE_OR_SOCKET_IO.check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("java.io.File");
    }

    @Test
    void dependencyRule_failsOnAClassThatUsesAForbiddenLibrary() {
        assertThatThrownBy(() -> CoreRules.ONLY_ALLOWED_DEPENDENCIES.check(bad))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("com.fasterxml.jackson");
    }
}
