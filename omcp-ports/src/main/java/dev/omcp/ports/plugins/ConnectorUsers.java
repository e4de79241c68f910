package dev.omcp.ports.plugins;

import java.util.List;

/**
 * Driven port: the sources that use a connector type, as a plugin removal needs them. A removal
 * first asks which sources would lose their connector, then, once the plugin is gone, has them
 * connect again to whatever now serves the type (nothing, or a plugin that was shadowed by it).
 * Implementations are thread-safe.
 */
public interface ConnectorUsers {

    /** The names of every source whose {@code type} is {@code connectorType}, whatever its state, sorted. */
    List<String> sourcesOfType(String connectorType);

    /**
     * Closes the connectors of every source of {@code connectorType} and creates them again from the
     * connector types loaded now; a source whose type is no longer loaded is kept without a connector,
     * with the reason in its status.
     */
    void reconnect(String connectorType);
}
