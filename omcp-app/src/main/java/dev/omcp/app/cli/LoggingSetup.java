package dev.omcp.app.cli;

import dev.omcp.app.settings.Settings;

/**
 * Hands the log settings to Logback before the first logger exists: {@link LauncherLogConfigurator}
 * reads them as system properties.
 */
final class LoggingSetup {
    private LoggingSetup() {}

    static void apply(Settings.Logging logging) {
        System.setProperty(LauncherLogConfigurator.LEVEL_PROPERTY, logging.level().toUpperCase(java.util.Locale.ROOT));
        System.setProperty(LauncherLogConfigurator.FORMAT_PROPERTY, logging.format().equals("json") ? "JSON" : "TEXT");
    }
}
