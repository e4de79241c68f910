package dev.omcp.ports.connectors;

import java.util.List;
import java.util.Optional;

/**
 * Driven port: the connector types that can serve sources (builtins plus loaded plugins). It may
 * change at runtime when a plugin is installed; readers always see a consistent snapshot.
 */
public interface ConnectorCatalog {

    /** The type named {@code name}, after precedence was applied. */
    Optional<ConnectorType> find(String name);

    /** Every type, sorted by name. */
    List<ConnectorType> all();
}
