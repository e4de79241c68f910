package dev.omcp.sdk.query;

import java.util.List;

/**
 * The answer to a service listing with what the backend's answer left out.
 *
 * @param services the services, as {@link dev.omcp.sdk.connector.ServiceListingCapability#listServices} returns them:
 *     sorted by name
 * @param warnings what the listing may lack, one short line each: targets or objects the backend answered in a shape the
 *     connector could not read (and so left out, or listed by another label), a namespace not listed yet. Backend text,
 *     so the gateway treats it as untrusted: it shows at most ten distinct warnings per source to the agent as
 *     {@code backendWarnings}, each made one line of at most 300 characters with URLs taken out. Empty when nothing was
 *     left out
 */
public record ServiceListing(List<ServiceInfo> services, List<String> warnings) {
    public ServiceListing {
        services = List.copyOf(services);
        warnings = List.copyOf(warnings);
    }

    /** A listing that left nothing out. */
    public ServiceListing(List<ServiceInfo> services) {
        this(services, List.of());
    }
}
