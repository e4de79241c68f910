package dev.omcp.sdk.connector;

import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import java.util.List;

/** A connector that can list the services its backend sees (manifest capability {@code listServices}). */
public interface ServiceListingCapability {
    /** The services, sorted by name. */
    List<ServiceInfo> listServices() throws ConnectorException;

    /**
     * The services with what the listing left out: the call the gateway makes. A connector whose backend can answer part
     * of a listing it cannot read (a target whose labels are of the wrong type, a namespace not listed yet) overrides it to
     * say so, and implements {@link #listServices()} as {@code serviceListing().services()}; by default it is
     * {@link #listServices()} with nothing left out, so a connector written before this method works unchanged.
     */
    default ServiceListing serviceListing() throws ConnectorException {
        return new ServiceListing(listServices());
    }
}
