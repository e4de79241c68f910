package dev.omcp.ports.resources;

import java.util.Objects;

/**
 * A parameterised resource as {@code resources/templates/list} publishes it.
 *
 * @param uriTemplate an RFC 6570 level-1 template, for example {@code omcp://services/{name}}
 * @param name short programmatic name
 * @param title human-readable name
 * @param description what the resources hold
 * @param mimeType media type of their contents
 */
public record ResourceTemplateDefinition(
        String uriTemplate, String name, String title, String description, String mimeType) {
    public ResourceTemplateDefinition {
        Objects.requireNonNull(uriTemplate, "uriTemplate");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(mimeType, "mimeType");
    }
}
