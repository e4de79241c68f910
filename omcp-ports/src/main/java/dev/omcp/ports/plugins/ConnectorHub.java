package dev.omcp.ports.plugins;

/**
 * Driven port: the connector hub, a static catalog of signed connector tarballs (spec 2.18),
 * served from a URL or read from a local directory (air-gapped installs).
 */
public interface ConnectorHub {

    /** Reads the aggregated index and each connector's catalog file. */
    HubCatalog catalog() throws HubUnavailableException;

    /**
     * Downloads the tarball of {@code release} and checks it before anyone unpacks it: its size
     * limit, its {@code integrity} and its detached signature against the trust root.
     *
     * @return the verified tarball bytes
     * @throws BundleRejectedException when the tarball does not match its integrity or signature
     */
    byte[] fetchBundle(HubRelease release) throws HubUnavailableException, BundleRejectedException;
}
