package dev.omcp.app.settings;

import java.util.List;
import java.util.Objects;

/**
 * One environment variable the launcher reads.
 *
 * @param name the variable's name
 * @param aliases other accepted names, consulted when {@code name} is unset
 * @param defaultValue what applies when it is unset, as documented (empty when there is none)
 * @param description what it does, one sentence
 * @param secret whether its value must never appear in logs or error messages
 */
public record Variable(String name, List<String> aliases, String defaultValue, String description, boolean secret) {
    public Variable {
        Objects.requireNonNull(name, "name");
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
    }
}
