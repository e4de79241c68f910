package dev.omcp.sdk.query;

import java.util.Objects;

/**
 * A metric the backend knows, from metric discovery.
 *
 * @param name metric name
 * @param type {@code counter}, {@code gauge}, {@code histogram}, {@code summary} or {@code unknown}
 * @param help the backend's description, possibly empty
 */
public record MetricInfo(String name, String type, String help) {
    public MetricInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(help, "help");
    }
}
