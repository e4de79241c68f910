package dev.omcp.app.cli;

import dev.omcp.app.settings.Settings;

/**
 * Hands the log settings to Logback before the first logger exists: {@code logback.xml} reads
 * them as system properties.
 */
final class LoggingSetup {
    private LoggingSetup() {}

    static void apply(Settings.Logging logging) {
        System.setProperty("omcp.log.level", logging.level().toUpperCase(java.util.Locale.ROOT));
        System.setProperty("omcp.log.appender", logging.format().equals("json") ? "JSON" : "TEXT");
    }
}
