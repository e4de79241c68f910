package dev.omcp.ports.sources;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One entry of the sources file's {@code plugins:} block (spec 5.8): load the plugin directory
 * {@code <name>-<version>} for this connector type.
 *
 * @param name the connector type
 * @param version the pinned version
 */
public record PluginPin(String name, String version) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+-]{0,63}");

    public PluginPin {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("plugin name '" + name + "' must be lower-case letters, digits, '.', '_' or '-'");
        }
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("plugin version '" + version + "' must be a version like 1.2.0");
        }
    }

    /** The pinned directory name, {@code <name>-<version>}. */
    public String directoryName() {
        return name + "-" + version;
    }
}
