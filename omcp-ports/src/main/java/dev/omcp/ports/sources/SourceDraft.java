package dev.omcp.ports.sources;

import jakarta.json.JsonObject;
import java.util.Objects;
import java.util.Optional;

/**
 * A source as the management API submits it.
 *
 * @param name unique source name
 * @param type connector type, for example {@code prometheus}
 * @param url the backend URL; empty (left out) on an update means "keep the current one", and a
 *     new source then has none. A URL given blank ({@code ""}, only spaces) is refused, never read
 *     as left out; surrounding spaces and line breaks of one given are dropped
 * @param tenant the tenant to bind the source to, the empty string for every tenant, or empty when
 *     the body did not say: a change then keeps the source's binding (a body that leaves the field
 *     out must not make a tenant's source everyone's), a new source is bound to the caller's tenant
 * @param enabled whether the source should get a connector, or empty when the body did not say: a
 *     new source is then enabled, a changed one keeps what it was (a {@code PUT} that leaves the field
 *     out must not switch on a source an operator switched off)
 * @param settings connector settings ({@code auth}, {@code tls}, {@code metrics}, connector keys);
 *     a secret shown masked by {@link ManageSources#list} and sent back unchanged keeps its value
 */
public record SourceDraft(String name, String type, Optional<String> url, Optional<String> tenant, Optional<Boolean> enabled,
        JsonObject settings) {
    public SourceDraft {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(enabled, "enabled");
        Objects.requireNonNull(settings, "settings");
    }

    /** A draft that says whether the source is enabled. */
    public SourceDraft(String name, String type, Optional<String> url, Optional<String> tenant, boolean enabled, JsonObject settings) {
        this(name, type, url, tenant, Optional.of(enabled), settings);
    }

    /** A draft that names its binding: {@code tenant} is the empty string for every tenant. */
    public SourceDraft(String name, String type, Optional<String> url, String tenant, boolean enabled, JsonObject settings) {
        this(name, type, url, Optional.of(tenant), enabled, settings);
    }

    /** Never prints the URL or the settings. */
    @Override
    public String toString() {
        return "SourceDraft[" + name + ", type=" + type + "]";
    }
}
