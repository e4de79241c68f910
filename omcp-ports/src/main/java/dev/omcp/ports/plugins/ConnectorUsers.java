package dev.omcp.ports.plugins;

import java.util.List;

/**
 * Driven port: the sources that use a connector type, as a plugin removal and install need them. A
 * removal first asks which sources would lose their connector, then, once the plugin is gone, has
 * them connect again to whatever now serves the type (nothing, or a plugin that was shadowed by it).
 * An install that replaces the connector serving its type (an upgrade, a downgrade) has every
 * source of the type connect again to the new version; any other install has the sources of its
 * type that have no connector (a forced removal left them so) connect, as a start would.
 * Implementations are thread-safe.
 */
public interface ConnectorUsers {

    /** The names of every source whose {@code type} is {@code connectorType}, whatever its state, sorted. */
    List<String> sourcesOfType(String connectorType);

    /**
     * Closes the connectors of every source of {@code connectorType} and creates them again from the
     * connector types loaded now; a source whose type is no longer loaded, or whose new connector
     * does not start, is kept without a connector, with the reason in its status. The definitions
     * are kept as they are.
     *
     * @return what became of each source reconnected, sorted by name
     */
    List<SourceReconnection> reconnect(String connectorType);

    /**
     * Creates the connectors of the enabled sources of {@code connectorType} that have none now,
     * from the connector types loaded now, as a start does; sources with a connector are left as
     * they are. A source that still cannot connect keeps the reason in its status.
     *
     * @return what became of each source that had no connector, sorted by name
     */
    List<SourceReconnection> connectUnconnected(String connectorType);
}
