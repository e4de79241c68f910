package dev.omcp.ports.sources;

import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.Optional;

/**
 * A source as the management API submits it.
 *
 * @param name unique source name
 * @param type connector type, for example {@code prometheus}
 * @param url the backend URL; empty on an update means "keep the current one"
 * @param tenant the tenant to bind the source to, or empty string for every tenant
 * @param enabled whether the source should get a connector
 * @param settings connector settings ({@code auth}, {@code tls}, {@code metrics}, connector keys);
 *     a secret shown masked by {@link ManageSources#list} and sent back unchanged keeps its value
 */
public record SourceDraft(String name, String type, Optional<String> url, String tenant, boolean enabled, JsonObject settings) {
    public SourceDraft {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(settings, "settings");
    }

    /** Never prints the URL or the settings. */
    @Override
    public String toString() {
        return "SourceDraft[" + name + ", type=" + type + "]";
    }
}
