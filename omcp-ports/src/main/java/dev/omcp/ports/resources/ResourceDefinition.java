package dev.omcp.ports.resources;

import java.util.Objects;

/**
 * A direct resource as {@code resources/list} publishes it.
 *
 * @param uri the resource's URI
 * @param name short programmatic name
 * @param title human-readable name
 * @param description what the resource holds
 * @param mimeType media type of its contents
 */
public record ResourceDefinition(String uri, String name, String title, String description, String mimeType) {
    public ResourceDefinition {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(mimeType, "mimeType");
    }
}
