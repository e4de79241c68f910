package dev.omcp.ports.prompts;

import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;

/** A prompt template the gateway serves over MCP. */
public interface Prompt {

    /** The definition {@code prompts/list} publishes. */
    PromptDefinition definition();

    /**
     * Renders the prompt. The gateway has already checked that every required argument is present.
     *
     * @return the {@code messages} ({@code {role, content}})
     * @throws IllegalArgumentException when an argument cannot be used (malformed, unknown); the
     *     message says what is allowed and {@code prompts/get} answers it as invalid params
     */
    List<JsonObject> render(Map<String, String> arguments, Principal principal);

    /** Suggests values for an argument ({@code completion/complete}); empty by default. */
    default List<String> complete(String argument, String prefix) {
        return List.of();
    }

    /**
     * Suggests values for an argument for this caller. A prompt whose suggestions come from data
     * the caller may or may not see (service names from the caller's sources) overrides this one;
     * the default ignores the caller.
     */
    default List<String> complete(String argument, String prefix, Principal principal) {
        return complete(argument, prefix);
    }
}
