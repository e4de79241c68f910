package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginInspector;
import dev.omcp.ports.plugins.PluginLoadException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Checks and loads one plugin directory anywhere on disk with exactly the code the gateway's
 * {@link FilesystemPluginStore} runs: {@code omcp plugin verify} and the connector test kit use it.
 * Registered in {@code META-INF/services/dev.omcp.ports.plugins.PluginInspector}.
 */
public final class DirectoryPluginInspector implements PluginInspector {
    private final PluginDirectoryCheck check = new PluginDirectoryCheck(new ManifestSchema());
    /** {@code omcp plugin verify} and the test kit say a plugin that hangs while loading, as the gateway would, and end. */
    private final PluginLoadDeadline loadDeadline = new PluginLoadDeadline(PluginLoadDeadline.DEFAULT);

    @Override
    public Inspection inspect(Path directory, Path trustRootPem, Optional<Path> revokedKeys) {
        return inspect(directory, trustRootPem, revokedKeys, Optional.empty());
    }

    /**
     * Checks as a gateway whose jar holds {@code builtInHub} does: its key verifies signatures too
     * ({@link FilesystemPluginStore}), so {@code omcp plugin verify} says the same of a plugin installed from it.
     */
    public Inspection inspect(Path directory, Path trustRootPem, Optional<Path> revokedKeys, Optional<BuiltInHub> builtInHub) {
        Path root = directory.toAbsolutePath().normalize();
        TrustRootKeys trust = TrustRootKeys.load(Optional.of(trustRootPem), revokedKeys, builtInHub.map(BuiltInHub::keys));
        // verify's verdict is whether the plugin loads where signatures are demanded: its manifest is read only once signed
        PluginCandidate candidate = check.check(root, root.toString(), ConnectorType.Origin.FILESYSTEM, Optional.empty(), trust, ManifestTrust.SIGNED)
                .map(PluginDirectoryCheck.Checked::candidate)
                .orElseGet(() -> {
                    CheckResult none = CheckResult.notChecked("not checked: no connector plugin found");
                    return new PluginCandidate(root.toString(), ConnectorType.Origin.FILESYSTEM,
                            root.getFileName() == null ? "plugin" : root.getFileName().toString(), Optional.empty(),
                            CheckResult.failed("no connector plugin here: a plugin directory holds a package.json whose observabilityMcp marker has kind 'connector'"),
                            none, none, "none");
                });
        return new Inspection(trust.state(), candidate);
    }

    @Override
    public LoadedPlugin load(Inspection inspection) throws PluginLoadException {
        PluginCandidate candidate = inspection.candidate();
        Path root = Path.of(candidate.location());
        // The fingerprint covers package.json, the manifest and the entry JAR: re-checking it is what
        // guards against files changed since the inspection, so the signature verdict is not repeated;
        // and the manifest is parsed again only when its raw bytes are the ones the inspection verified.
        return FilesystemPluginStore.loadChecked(candidate,
                check.check(root, candidate.location(), candidate.origin(), Optional.empty(), TrustRootKeys.absent(),
                        ManifestTrust.sameAs(candidate.fingerprint())),
                DirectoryPluginInspector.class.getClassLoader(), loadDeadline);
    }
}
