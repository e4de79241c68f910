package dev.omcp.ports.tools;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one tool call ({@code CallToolResult}).
 *
 * @param content content blocks ({@code text}, {@code image}, {@code audio}, {@code resource},
 *     {@code resource_link})
 * @param structuredContent the machine-readable result, matching the tool's output schema
 * @param isError whether the call failed; the content then explains why
 */
public record ToolResult(List<JsonObject> content, Optional<JsonObject> structuredContent, boolean isError) {

    public ToolResult {
        content = List.copyOf(content);
        Objects.requireNonNull(structuredContent, "structuredContent");
    }

    /**
     * A structured result: {@code structuredContent} holds {@code value} and {@code content[0].text}
     * the same JSON as text, so clients that ignore structured content see the same data.
     */
    public static ToolResult structured(JsonObject value) {
        return new ToolResult(List.of(textBlock(value.toString())), Optional.of(value), false);
    }

    /** A structured result whose text form is {@code text} (for example markdown). */
    public static ToolResult structured(JsonObject value, String text) {
        return new ToolResult(List.of(textBlock(text)), Optional.of(value), false);
    }

    /** A plain text result. */
    public static ToolResult text(String text, boolean isError) {
        return new ToolResult(List.of(textBlock(text)), Optional.empty(), isError);
    }

    /** A failed call; {@code message} says what went wrong and what to do about it. */
    public static ToolResult error(String message) {
        return text(message, true);
    }

    /** A {@code text} content block. */
    public static JsonObject textBlock(String text) {
        return Jsonp.object().add("type", "text").add("text", text).build();
    }

    /** The text of the first content block, or empty string when it is not text. */
    public String firstText() {
        if (content.isEmpty()) {
            return "";
        }
        return content.getFirst().getString("text", "");
    }
}
