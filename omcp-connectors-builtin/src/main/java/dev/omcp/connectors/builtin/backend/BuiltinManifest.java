package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Optional;

/**
 * The manifest of a connector type built into the gateway. The builtin types ship inside the
 * gateway, so they share one version, licence and compatibility range and have no integrity hash
 * or hooks; only what they connect to and the settings they read differ.
 */
public final class BuiltinManifest {
    private BuiltinManifest() {}

    /**
     * @param name the connector type, {@code type} in the sources file
     * @param displayName human-readable name
     * @param description what it connects to
     * @param signalType the one signal it serves: {@code metrics}, {@code logs} or {@code topology}
     * @param capabilities what it can do
     * @param settings the JSON Schema properties of the type's own source settings
     */
    public static ConnectorManifest of(String name, String displayName, String description, String signalType,
            Capabilities capabilities, JsonObjectBuilder settings) {
        return new ConnectorManifest(1, name, displayName, "1.0.0", description, List.of(signalType), capabilities,
                settingsSchema(settings), Optional.of(">=0.1.0"), Optional.empty(), List.of(), Optional.empty(),
                Optional.of("Apache-2.0"));
    }

    private static JsonObject settingsSchema(JsonObjectBuilder properties) {
        return Jsonp.object()
                .add("$schema", "https://json-schema.org/draft/2020-12/schema")
                .add("type", "object")
                .add("properties", properties)
                .build();
    }
}
