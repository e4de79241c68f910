package dev.omcp.core.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.manifest.HookEntry;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;

/** Plugin candidates in every state the checks can leave them, for decision tests. */
final class Candidates {
    private Candidates() {}

    static ConnectorManifest manifest(String name, String version, Optional<String> serverRange, List<HookEntry> hooks) {
        return new ConnectorManifest(1, name, name, version, "test connector " + name, List.of("traces"),
                new Capabilities(false, false, false, true, false), JsonValue.EMPTY_JSON_OBJECT, serverRange,
                Optional.of("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), hooks, Optional.empty(), Optional.empty());
    }

    static ConnectorManifest manifest(String name) {
        return manifest(name, "1.0.0", Optional.of(">=0.1.0"), List.of());
    }

    static PluginCandidate verified(String name) {
        return verified(name, name, ConnectorType.Origin.FILESYSTEM, manifest(name));
    }

    static PluginCandidate verified(String location, String name, ConnectorType.Origin origin, ConnectorManifest manifest) {
        return new PluginCandidate(location, origin, name, Optional.of(manifest), CheckResult.passed(), CheckResult.passed(),
                CheckResult.passed(), "fp-" + location + "-" + manifest.version());
    }

    static PluginCandidate withHooks(String name, HookEntry... hooks) {
        return verified(name, name, ConnectorType.Origin.FILESYSTEM, manifest(name, "1.0.0", Optional.empty(), List.of(hooks)));
    }

    static HookEntry hook(HookKind kind, String module) {
        return new HookEntry(kind, module, HookEntry.DEFAULT_PRIORITY, Optional.empty());
    }

    static PluginCandidate tamperedJar(String name) {
        return new PluginCandidate(name, ConnectorType.Origin.FILESYSTEM, name, Optional.of(manifest(name)), CheckResult.passed(),
                CheckResult.failed("integrity mismatch: manifest says sha256-AAA= but the entry JAR hashes to sha256-BBB="),
                CheckResult.passed(), "fp-tampered-" + name);
    }

    static PluginCandidate unsigned(String name) {
        return new PluginCandidate(name, ConnectorType.Origin.FILESYSTEM, name, Optional.of(manifest(name)), CheckResult.passed(),
                CheckResult.passed(), CheckResult.failed("no signature: manifest.json.sig is missing"), "fp-unsigned-" + name);
    }

    static PluginCandidate unsignedWithoutTrustRoot(String name) {
        return new PluginCandidate(name, ConnectorType.Origin.FILESYSTEM, name, Optional.of(manifest(name)), CheckResult.passed(),
                CheckResult.passed(), CheckResult.notChecked("no trust root to verify the signature against"), "fp-nt-" + name);
    }

    static PluginCandidate invalidManifest(String name) {
        return new PluginCandidate(name, ConnectorType.Origin.FILESYSTEM, name, Optional.empty(),
                CheckResult.failed(List.of("manifest.json: $.version is missing", "manifest.json: $.signalTypes[0] 'events' is not allowed")),
                CheckResult.notChecked("no valid manifest"), CheckResult.notChecked("no valid manifest"), "fp-invalid-" + name);
    }
}
