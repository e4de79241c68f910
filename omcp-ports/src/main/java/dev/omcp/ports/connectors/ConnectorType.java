package dev.omcp.ports.connectors;

import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.manifest.ConnectorManifest;
import java.util.Objects;

/**
 * A connector type the gateway can instantiate sources of.
 *
 * @param factory creates connectors
 * @param manifest the verified manifest (for builtins, the one their factory declares)
 * @param origin where the type came from
 */
public record ConnectorType(ConnectorFactory factory, ConnectorManifest manifest, Origin origin) {
    /** Where a connector type was loaded from, in order of precedence on a name collision (spec 5.8). */
    public enum Origin {
        /** Part of the gateway, never gated by verification (spec 1.4). */
        BUILTIN,
        /** A verified plugin directory in {@code PLUGINS_DIR}. */
        FILESYSTEM,
        /** A {@code <name>-<version>} directory pinned by the sources file's {@code plugins:} block. */
        PINNED
    }

    public ConnectorType {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(origin, "origin");
    }

    /** The type name, used as {@code type} in the sources file. */
    public String name() {
        return manifest.name();
    }
}
