package dev.omcp.core.sources;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Set;

/**
 * Checks a source against the {@code configSchema} its connector's manifest declares, before the
 * factory sees it: a plugin that declares {@code fetchConcurrency} at most 32 gets no source with
 * 500, and the operator learns which key is wrong from the gateway rather than from whatever the
 * plugin makes of it.
 *
 * <p>What is checked is the source's settings with its {@code url}, the way the reference plugins'
 * schemas describe a source, without the transport keys the gateway itself reads ({@code auth},
 * {@code tls}, {@code headers}): a schema that closes its properties need not list them. Keywords
 * outside {@link JsonSchemaValidator#KNOWN_KEYWORDS} do not refuse anything, so the factory stays
 * the last word on its settings. Messages name keys and limits, never a setting's value.
 */
final class ConfigSchemaCheck {
    private static final Set<String> TRANSPORT_KEYS = Set.of("auth", "tls", "headers");
    private static final JsonSchemaValidator VALIDATOR = new JsonSchemaValidator();
    /** A source's problems beyond these are counted, not listed: the reason stays readable. */
    private static final int MAX_LISTED = 10;

    private ConfigSchemaCheck() {}

    /** Why {@code source} does not match {@code configSchema}; empty when it does, or when the schema is empty. */
    static String problems(JsonObject configSchema, SourceConfig source) {
        if (configSchema.isEmpty()) {
            return "";
        }
        JsonObjectBuilder checked = Jsonp.object();
        source.settings().forEach((key, value) -> {
            if (!TRANSPORT_KEYS.contains(key)) {
                checked.add(key, value);
            }
        });
        // the API and the sources file refuse a setting named url, but an embedder's own store (InMemorySourceStore) may
        // hold one, and the connector is handed that setting: the schema judges it, not the field beside it
        if (!source.url().isBlank() && !source.settings().containsKey("url")) {
            checked.add("url", source.url());
        }
        List<String> violations = VALIDATOR.validate(configSchema, checked.build(), "source");
        if (violations.isEmpty()) {
            return "";
        }
        String listed = String.join("; ", violations.stream().limit(MAX_LISTED).toList());
        return "the source does not match the configSchema of the " + source.type() + " connector's manifest: " + listed
                + (violations.size() > MAX_LISTED ? "; and " + (violations.size() - MAX_LISTED) + " more" : "");
    }
}
