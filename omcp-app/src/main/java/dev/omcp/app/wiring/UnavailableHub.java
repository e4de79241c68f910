package dev.omcp.app.wiring;

import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;

/**
 * The hub of a gateway that has none ({@code HUB_CATALOG_URL=off}, or a jar without its built-in hub):
 * every read is unavailable with the reason, so {@code GET /api/hub/catalog} answers 502 and an install
 * from the hub is refused, each saying why and what to do.
 */
record UnavailableHub(String reason) implements ConnectorHub {
    @Override
    public HubCatalog catalog() throws HubUnavailableException {
        throw new HubUnavailableException(reason);
    }

    @Override
    public byte[] fetchBundle(HubRelease release) throws HubUnavailableException {
        throw new HubUnavailableException(reason);
    }
}
