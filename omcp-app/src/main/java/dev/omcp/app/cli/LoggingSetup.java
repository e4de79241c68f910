package dev.omcp.app.cli;

import ch.qos.logback.classic.Level;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.plugins.BundleInstaller;
import dev.omcp.core.plugins.PluginRemoval;
import java.util.List;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * Hands the log settings to Logback before the first logger exists: {@link LauncherLogConfigurator}
 * reads them as system properties.
 */
final class LoggingSetup {
    private LoggingSetup() {}

    static void apply(Settings.Logging logging) {
        System.setProperty(LauncherLogConfigurator.LEVEL_PROPERTY, logging.level().toUpperCase(Locale.ROOT));
        System.setProperty(LauncherLogConfigurator.FORMAT_PROPERTY, logging.format().equals("json") ? "JSON" : "TEXT");
    }

    /**
     * For {@code omcp plugin ...}: the command prints the outcome of an install or a removal itself, so
     * the core's events for it ({@code plugin-installed}, {@code plugin-install-refused},
     * {@code plugin-removed}, {@code plugin-remove-refused}...) said the same reason a second time on
     * standard error. Their errors still come through, and at debug or trace everything does.
     */
    static void leaveOutcomesToTheCommand(Settings.Logging logging) {
        String level = logging.level().toLowerCase(Locale.ROOT);
        if (level.equals("debug") || level.equals("trace")) {
            return;
        }
        for (Class<?> outcomes : List.of(BundleInstaller.class, PluginRemoval.class)) {
            if (LoggerFactory.getLogger(outcomes) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(Level.ERROR);
            }
        }
    }
}
