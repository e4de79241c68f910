package dev.omcp.core.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** ARCHITECTURE.md rules 3 and 6, applied to the production classes of the core. */
@AnalyzeClasses(packages = "dev.omcp.core", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreArchitectureTest {
    @ArchTest
    static final ArchRule onlyAllowedDependencies = CoreRules.ONLY_ALLOWED_DEPENDENCIES;

    @ArchTest
    static final ArchRule noFileOrSocketIo = CoreRules.NO_FILE_OR_SOCKET_IO;

    @ArchTest
    static final ArchRule noEnvironment = CoreRules.NO_ENVIRONMENT;

    @ArchTest
    static final ArchRule noWallClock = CoreRules.NO_WALL_CLOCK;

    @ArchTest
    static final ArchRule systemClockOnlyAsBuilderDefault = CoreRules.SYSTEM_CLOCK_ONLY_AS_BUILDER_DEFAULT;

    @ArchTest
    static final ArchRule noPackageCycles = CoreRules.NO_PACKAGE_CYCLES;

    @ArchTest
    static final ArchRule noGrabBagPackages = CoreRules.NO_GRAB_BAG_PACKAGES;
}
