package dev.omcp.sdk.manifest;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A connector's {@code manifest.json} (spec 2.2), as the gateway reads it.
 *
 * @param schemaVersion always 1
 * @param name the connector type, used as {@code type} in the sources file
 * @param displayName human-readable name
 * @param version semantic version
 * @param description what it connects to
 * @param signalTypes {@code metrics}, {@code logs}, {@code traces}, {@code topology}
 * @param capabilities what it declares it can do
 * @param configSchema JSON Schema (draft 2020-12) of a source entry's settings
 * @param serverVersion the {@code compat.serverVersion} range, for example {@code >=0.1.0}
 * @param integrity {@code sha256-<base64>} of the entry JAR, for verified loading
 * @param hooks lifecycle hooks
 * @param homepage project URL
 * @param license license name
 */
public record ConnectorManifest(
        int schemaVersion,
        String name,
        String displayName,
        String version,
        String description,
        List<String> signalTypes,
        Capabilities capabilities,
        JsonObject configSchema,
        Optional<String> serverVersion,
        Optional<String> integrity,
        List<HookEntry> hooks,
        Optional<String> homepage,
        Optional<String> license) {
    public ConnectorManifest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(description, "description");
        signalTypes = List.copyOf(signalTypes);
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(configSchema, "configSchema");
        Objects.requireNonNull(serverVersion, "serverVersion");
        Objects.requireNonNull(integrity, "integrity");
        hooks = List.copyOf(hooks);
        Objects.requireNonNull(homepage, "homepage");
        Objects.requireNonNull(license, "license");
    }

    /**
     * The manifest a plugin's factory returns from {@code ConnectorFactory.manifest()}. The gateway
     * reads only its {@code name} (which must equal {@code manifest.json}'s): version, capabilities,
     * config schema and hooks come from the verified {@code manifest.json}. The other values are for
     * a factory also used outside a plugin: keep {@code capabilities} in step with the manifest.
     * Version {@code 0.0.0}, {@code displayName} as the description, an empty config schema, and no
     * compat range, integrity, hooks, homepage or license.
     *
     * @param name the connector type, as in {@code manifest.json}
     * @param displayName human-readable name
     * @param signalTypes {@code metrics}, {@code logs}, {@code traces}, {@code topology}
     * @param capabilities what the connector implements and its manifest declares
     */
    public static ConnectorManifest named(String name, String displayName, List<String> signalTypes, Capabilities capabilities) {
        return new ConnectorManifest(1, name, displayName, "0.0.0", displayName, signalTypes, capabilities, JsonObject.EMPTY_JSON_OBJECT,
                Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }
}
