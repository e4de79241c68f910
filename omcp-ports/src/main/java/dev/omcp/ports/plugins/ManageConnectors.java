package dev.omcp.ports.plugins;

import java.util.List;
import java.util.Optional;

/**
 * Driving port: the connector part of the management plane (spec 4.3, 7.4) and of
 * {@code omcp plugin}. Installs verify exactly as the loader does, write nothing when refused, and
 * take effect without a restart: the plugins are re-scanned and hooks re-registered in place. An
 * install never silently replaces a plugin with an older version of itself ({@link DowngradePolicy}),
 * nor with other contents under the same version.
 */
public interface ManageConnectors {
    /** The largest bundle an upload or install accepts: 50 MiB (DECISIONS.md). */
    int MAX_BUNDLE_BYTES = 50 * 1024 * 1024;

    /** Every connector type: builtins, then plugins, each with its state. Needs {@code connectors:read}. */
    List<ConnectorStatus> connectors();

    /** The hub catalog merged with the installed state. Needs {@code connectors:read}. */
    HubListing hubCatalog() throws HubUnavailableException;

    /**
     * Installs {@code name} from the hub catalog; only the catalog's tarball URL is fetched. Needs
     * {@code connectors:write}.
     *
     * @param version an exact version, or empty for the catalog's latest
     * @param downgrade whether a version older than the installed one may replace it
     * @param audience the sources the answer may name (the caller's tenant's and unbound ones)
     */
    InstallOutcome install(String name, Optional<String> version, DowngradePolicy downgrade, SourceAudience audience);

    /** {@link #install(String, Optional, DowngradePolicy, SourceAudience)} for an operator of the whole gateway. */
    default InstallOutcome install(String name, Optional<String> version, DowngradePolicy downgrade) {
        return install(name, version, downgrade, SourceAudience.wholeGateway());
    }

    /** {@link #install(String, Optional, DowngradePolicy)}, refusing a downgrade. */
    default InstallOutcome install(String name, Optional<String> version) {
        return install(name, version, DowngradePolicy.REFUSE);
    }

    /**
     * Installs an uploaded {@code .tgz} bundle. Needs {@code connectors:write}.
     *
     * @param downgrade whether a version older than the installed one may replace it
     * @param audience the sources the answer may name (the caller's tenant's and unbound ones)
     */
    InstallOutcome upload(byte[] tarball, DowngradePolicy downgrade, SourceAudience audience);

    /** {@link #upload(byte[], DowngradePolicy, SourceAudience)} for an operator of the whole gateway. */
    default InstallOutcome upload(byte[] tarball, DowngradePolicy downgrade) {
        return upload(tarball, downgrade, SourceAudience.wholeGateway());
    }

    /** {@link #upload(byte[], DowngradePolicy)}, refusing a downgrade. */
    default InstallOutcome upload(byte[] tarball) {
        return upload(tarball, DowngradePolicy.REFUSE);
    }

    /**
     * Removes the plugin installed in the plugins directory's {@code <name>} sub-directory: its
     * connector and hooks are unloaded and its files deleted, crash-safely. Needs
     * {@code connectors:delete} and {@code ENABLE_UI_INSTALL}. The version it had is forgotten: a
     * later install of any version is a first install.
     *
     * @param force remove it even when sources use its connector; they are then left without one
     * @param audience the sources the answer may name; the others using the connector are only counted
     */
    RemoveOutcome remove(String name, boolean force, SourceAudience audience);

    /** {@link #remove(String, boolean, SourceAudience)} for an operator of the whole gateway. */
    default RemoveOutcome remove(String name, boolean force) {
        return remove(name, force, SourceAudience.wholeGateway());
    }

    /** Whether runtime install and upload are enabled ({@code ENABLE_UI_INSTALL}). */
    boolean installEnabled();

    /**
     * Why an install or upload would be refused before any bundle is read: runtime install is off
     * ({@link InstallOutcome.Kind#DISABLED}) or there is no usable trust root
     * ({@link InstallOutcome.Kind#NO_TRUST_ROOT}); empty when installs may proceed. Lets the HTTP
     * adapter answer 403 or 412 without reading a 50 MiB body first.
     */
    java.util.Optional<InstallOutcome.Refused> installRefusal();
}
