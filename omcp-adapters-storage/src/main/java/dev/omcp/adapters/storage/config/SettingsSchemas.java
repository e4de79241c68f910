package dev.omcp.adapters.storage.config;

import jakarta.json.JsonObject;
import java.util.Optional;

/**
 * The JSON Schema a connector type declares for its sources' settings (its manifest's {@code configSchema}), by type
 * name. The sources file reads a {@code ${VAR}} setting with it: the environment holds text only, and a setting the
 * schema declares a number or a boolean would otherwise reach the connector as text.
 */
@FunctionalInterface
public interface SettingsSchemas {
    /** No type is known: every {@code ${VAR}} setting stays text. */
    SettingsSchemas NONE = type -> Optional.empty();

    /** The schema of {@code connectorType}'s settings, when that type is loaded and declares one. */
    Optional<JsonObject> of(String connectorType);
}
