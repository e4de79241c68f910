package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.ServiceInfo;
import java.util.List;

/** A connector that can list the services its backend sees (manifest capability {@code listServices}). */
public interface ServiceListingCapability {
    /** The services, sorted by name. */
    List<ServiceInfo> listServices() throws ConnectorException;
}
