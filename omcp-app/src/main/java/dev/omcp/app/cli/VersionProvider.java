package dev.omcp.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The gateway version, stamped into the jar by the build. */
public final class VersionProvider implements IVersionProvider {
    private static final String VERSION = load();

    /** The version, for example {@code 0.1.0}. */
    public static String version() {
        return VERSION;
    }

    /** The version for plugin {@code compat.serverVersion} checks; a development build counts as 0.0.0. */
    public static dev.omcp.core.plugins.SemanticVersion serverVersion() {
        return dev.omcp.core.plugins.SemanticVersion.parse(VERSION).orElse(dev.omcp.core.plugins.SemanticVersion.of(0, 0, 0));
    }

    @Override
    public String[] getVersion() {
        return new String[] {"omcp " + VERSION};
    }

    private static String load() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/omcp/app/version.properties")) {
            if (in == null) {
                return "0.0.0-dev";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "0.0.0-dev");
        } catch (IOException e) {
            throw new UncheckedIOException("the version resource in the jar is unreadable", e);
        }
    }
}
