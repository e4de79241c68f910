package dev.omcp.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.lang.ArchRule;

/**
 * ARCHITECTURE.md rule 3: the core depends only on ports, the SDK, the JDK, jakarta.json and
 * SLF4J; it does no file or socket I/O, reads no environment and no wall clock.
 */
final class CoreRules {
    private CoreRules() {}

    static final ArchRule ONLY_ALLOWED_DEPENDENCIES = classes()
            .that().resideInAPackage("dev.omcp.core..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    // javax.crypto is the JDK's own (HMAC for the sources' entity tags), not a library
                    "dev.omcp.core..", "dev.omcp.ports..", "dev.omcp.sdk..", "java..", "javax.crypto..", "jakarta.json..", "org.slf4j..")
            .because("the core is the embeddable part: no Javalin, Jackson, Jedis, SnakeYAML, Nimbus or BouncyCastle");

    static final ArchRule NO_FILE_OR_SOCKET_IO = noClasses()
            .that().resideInAPackage("dev.omcp.core..")
            .should().dependOnClassesThat().resideInAnyPackage("java.nio.file..", "java.net.http..", "java.nio.channels..")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.RandomAccessFile")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.Socket")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.ServerSocket")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.DatagramSocket")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.URLConnection")
            .because("I/O belongs to adapters behind ports");

    static final ArchRule NO_ENVIRONMENT = noClasses()
            .that().resideInAPackage("dev.omcp.core..")
            .should().callMethod(System.class, "getenv")
            .orShould().callMethod(System.class, "getenv", String.class)
            .because("only the launcher's settings reader reads the environment");

    static final ArchRule NO_WALL_CLOCK = noClasses()
            .that().resideInAPackage("dev.omcp.core..")
            .should().callMethodWhere(wallClockRead())
            .because("time comes from an injected Clock so rules can be tested with a manual clock");

    /**
     * The builder's default clock is the one place that names the system clock: it is a default
     * for embedders, replaced by any caller that passes its own.
     */
    static final ArchRule SYSTEM_CLOCK_ONLY_AS_BUILDER_DEFAULT = noClasses()
            .that().resideInAPackage("dev.omcp.core..")
            .and().resideOutsideOfPackage("dev.omcp.core.gateway..")
            .should().callMethod(java.time.Clock.class, "systemUTC")
            .orShould().callMethod(java.time.Clock.class, "systemDefaultZone");

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.omcp.core.(**)").should().beFreeOfCycles();

    static final ArchRule NO_GRAB_BAG_PACKAGES = noClasses()
            .should().resideInAnyPackage("..util..", "..utils..", "..common..", "..helpers..")
            .because("one area per package, no grab-bags (ARCHITECTURE.md rule 6)");

    private static DescribedPredicate<JavaCall<?>> wallClockRead() {
        return DescribedPredicate.describe("reads the wall clock", call -> {
            String owner = call.getTargetOwner().getName();
            String name = call.getName();
            if (owner.equals("java.lang.System") && name.equals("currentTimeMillis")) {
                return true;
            }
            boolean timeType = owner.equals("java.time.Instant") || owner.equals("java.time.LocalDateTime")
                    || owner.equals("java.time.LocalDate") || owner.equals("java.time.LocalTime")
                    || owner.equals("java.time.ZonedDateTime") || owner.equals("java.time.OffsetDateTime")
                    || owner.equals("java.util.Date");
            return timeType && name.equals("now");
        });
    }
}
