package dev.omcp.adapters.storage.config;

import java.util.List;
import java.util.Objects;

/**
 * Sources given by environment variables (used only when no sources file exists): one URL makes a
 * source named like the type, several make {@code <type>-1}, {@code <type>-2}, ...
 *
 * @param type the connector type, for example {@code prometheus}
 * @param variable the variable that held the URLs ({@code PROMETHEUS_URL} or its alias), written back
 *     as {@code ${VARIABLE}} when the file is first created
 * @param urls the URLs, in order
 */
public record EnvironmentSource(String type, String variable, List<String> urls) {
    public EnvironmentSource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(variable, "variable");
        urls = List.copyOf(urls);
    }
}
