package dev.omcp.ports.plugins;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One entry of the sources file's {@code plugins:} block: load exactly this version of a plugin,
 * from the directory {@code <name>-<version>} of the plugins directory (spec 5.8).
 *
 * @param name the connector name
 * @param version the exact semantic version
 */
public record PluginPin(String name, String version) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final Pattern VERSION = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+(?:[-+][0-9A-Za-z.+-]{1,64})?");

    public PluginPin {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("plugin pin name '" + name
                    + "' must be 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("plugin pin '" + name + "' has version '" + version
                    + "'; give an exact semantic version such as 1.2.0");
        }
    }

    /** The directory name the pin selects: {@code <name>-<version>}. */
    public String directoryName() {
        return name + "-" + version;
    }
}
