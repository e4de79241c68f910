package dev.omcp.ports.prompts;

import java.util.List;
import java.util.Objects;

/**
 * A prompt as {@code prompts/list} publishes it.
 *
 * @param name unique name
 * @param title human-readable name
 * @param description what the prompt is for
 * @param arguments the arguments it takes
 */
public record PromptDefinition(String name, String title, String description, List<PromptArgument> arguments) {
    public PromptDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        arguments = List.copyOf(arguments);
    }
}
