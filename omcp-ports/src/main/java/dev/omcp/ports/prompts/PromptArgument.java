package dev.omcp.ports.prompts;

import java.util.Objects;

/**
 * One argument of a prompt.
 *
 * @param name argument name
 * @param description what to pass
 * @param required whether {@code prompts/get} must supply it
 */
public record PromptArgument(String name, String description, boolean required) {
    public PromptArgument {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
    }
}
