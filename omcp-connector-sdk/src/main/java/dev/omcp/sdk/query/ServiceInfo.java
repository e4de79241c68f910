package dev.omcp.sdk.query;

import java.util.Map;
import java.util.Objects;

/**
 * A service a backend knows.
 *
 * @param name the service name (may contain slashes)
 * @param attributes what the backend says about it, for example {@code {label="job", targets="3"}}
 */
public record ServiceInfo(String name, Map<String, String> attributes) {
    public ServiceInfo {
        Objects.requireNonNull(name, "name");
        attributes = Map.copyOf(attributes);
    }
}
