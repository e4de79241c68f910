package dev.omcp.testkit.connector;

import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginInspector;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.TrustRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Loads a plugin directory exactly as the gateway does, with the gateway's own verification code.
 *
 * <p>The kit demands what the gateway's strict mode ({@code PLUGIN_REQUIRE_SIGNATURE=true})
 * demands: a usable trust root, a manifest valid against the schema, the entry JAR matching
 * {@code integrity}, and {@code manifest.json.sig} verifying against the trust root. A plugin that
 * passes loads in every gateway configuration (compatibility aside: {@code compat.serverVersion} is
 * checked by each gateway against its own version).
 *
 * <p>The verification code is the storage adapter's {@link PluginInspector}: add
 * {@code dev.omcp:omcp-adapters-storage} to your test dependencies and it is found through
 * {@link ServiceLoader}, or pass an implementation to {@link #load(Path, Path, PluginInspector)}.
 */
public final class ConnectorTestKit {
    private ConnectorTestKit() {}

    /**
     * Verifies and loads the plugin in {@code directory} against the PEM public key
     * {@code trustRootPem}.
     *
     * @throws PluginRefusedException listing every reason the gateway would refuse it
     */
    public static VerifiedPlugin load(Path directory, Path trustRootPem) {
        return load(directory, trustRootPem, inspector());
    }

    /** As {@link #load(Path, Path)} with an explicit verifier. */
    public static VerifiedPlugin load(Path directory, Path trustRootPem, PluginInspector inspector) {
        if (!Files.isDirectory(directory)) {
            // The usual cause: the tests ran before the build packed the plugin (an IDE run, or mvn test).
            throw new PluginRefusedException("there is no plugin to verify at " + directory.toAbsolutePath(), List.of(
                    (Files.exists(directory) ? "it is a file, not a directory" : "the directory does not exist")
                            + ": pack the plugin there first (your packing program around PluginPackager.pack), as `mvn verify`"
                            + " does in pre-integration-test before failsafe runs the tests"));
        }
        PluginInspector.Inspection inspection = inspector.inspect(directory, trustRootPem);
        List<String> problems = new ArrayList<>();
        // The gateway's reason names PLUGIN_TRUST_ROOT, its setting; here the key is the file the test gave.
        String gatewayReason = inspection.trustRoot().unavailableReason();
        String kitReason = inspection.trustRoot().state() == TrustRoot.State.INVALID && trustRootPem != null
                ? "the trust root " + trustRootPem.toAbsolutePath() + " is unusable: " + inspection.trustRoot().detail()
                : gatewayReason;
        if (!inspection.trustRoot().isLoaded()) {
            problems.add(kitReason);
        }
        PluginCandidate candidate = inspection.candidate();
        if (!candidate.fullyVerified()) {
            for (String problem : candidate.problems()) {
                String shown = gatewayReason.isEmpty() ? problem : problem.replace(gatewayReason, kitReason);
                if (!problems.contains(shown)) {
                    problems.add(shown);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new PluginRefusedException("the gateway would refuse plugin '" + candidate.name()
                    + "' (skipped by default, fatal with PLUGIN_REQUIRE_SIGNATURE=true)", problems);
        }
        LoadedPlugin loaded;
        try {
            loaded = inspector.load(inspection);
        } catch (PluginLoadException e) {
            throw new PluginRefusedException("the gateway verified plugin '" + candidate.name() + "' but could not load it", List.of(e.getMessage()));
        }
        if (!loaded.skippedHooks().isEmpty()) {
            throw new PluginRefusedException("the gateway loads plugin '" + candidate.name() + "' but skips some of its hooks",
                    loaded.skippedHooks().stream().map(h -> h.entry().kind().wireName() + " " + h.entry().module() + ": " + h.reason()).toList());
        }
        return new VerifiedPlugin(inspection, loaded);
    }

    /** The gateway's verifier from the class path. */
    static PluginInspector inspector() {
        return ServiceLoader.load(PluginInspector.class, ConnectorTestKit.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no plugin verifier on the class path: add dev.omcp:omcp-adapters-storage "
                        + "to your test dependencies (it holds the gateway's verification code), or pass a PluginInspector"));
    }
}
