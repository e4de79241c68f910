package dev.omcp.ports.plugins;

import java.nio.file.Path;

/**
 * Checks and loads one plugin directory anywhere on disk, with the same code the gateway's
 * {@link PluginStore} uses. {@code omcp plugin verify} and the connector test kit use it, so a
 * connector author's CI runs exactly the verification the gateway runs.
 *
 * <p>The storage adapter registers its implementation in
 * {@code META-INF/services/dev.omcp.ports.plugins.PluginInspector}; the test kit finds it there
 * when no implementation is passed in.
 */
public interface PluginInspector {

    /**
     * Checks the plugin in {@code directory} against the trust root in the PEM file
     * {@code trustRootPem}.
     */
    default Inspection inspect(Path directory, Path trustRootPem) {
        return inspect(directory, trustRootPem, java.util.Optional.empty());
    }

    /**
     * Checks the plugin in {@code directory} against the trust root in the PEM file
     * {@code trustRootPem}, without the keys the revocation list {@code revokedKeys}
     * ({@code OMCP_PLUGIN_REVOKED_KEYS}) names: a signature by one of them does not verify.
     */
    Inspection inspect(Path directory, Path trustRootPem, java.util.Optional<Path> revokedKeys);

    /** Loads a plugin {@link #inspect} checked, as the gateway would. */
    LoadedPlugin load(Inspection inspection) throws PluginLoadException;

    /**
     * The result of {@link #inspect}.
     *
     * @param trustRoot the state of the trust root read from the PEM file
     * @param candidate what the checks found
     */
    record Inspection(TrustRoot trustRoot, PluginCandidate candidate) {
        public Inspection {
            java.util.Objects.requireNonNull(trustRoot, "trustRoot");
            java.util.Objects.requireNonNull(candidate, "candidate");
        }
    }
}
