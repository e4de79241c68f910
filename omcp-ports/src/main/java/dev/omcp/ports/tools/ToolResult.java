package dev.omcp.ports.tools;

import dev.omcp.sdk.json.CompactJson;
import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
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
 * @param textIsStructuredJson whether {@code content[0].text} is exactly {@code structuredContent}
 *     serialized, as {@link #structured(JsonObject)} makes it: a transport may then send that text as
 *     the serialized structured content instead of serializing the same JSON a second time
 */
public record ToolResult(List<JsonObject> content, Optional<JsonObject> structuredContent, boolean isError,
        boolean textIsStructuredJson) {

    public ToolResult {
        content = List.copyOf(content);
        Objects.requireNonNull(structuredContent, "structuredContent");
        if (textIsStructuredJson) {
            if (structuredContent.isEmpty() || content.isEmpty() || !(content.getFirst().get("text") instanceof JsonString)) {
                throw new IllegalArgumentException("textIsStructuredJson needs structured content and a text block first");
            }
            // Checked where assertions run (the tests): serializing again here would cost what the flag saves.
            assert content.getFirst().getString("text").equals(structuredContent.get().toString())
                    : "content[0].text is not the serialized structured content";
        }
    }

    /** A result whose text, if any, is not claimed to be the serialized structured content. */
    public ToolResult(List<JsonObject> content, Optional<JsonObject> structuredContent, boolean isError) {
        this(content, structuredContent, isError, false);
    }

    /**
     * A structured result: {@code structuredContent} holds {@code value} and {@code content[0].text}
     * the same JSON as text, so clients that ignore structured content see the same data.
     */
    public static ToolResult structured(JsonObject value) {
        return new ToolResult(List.of(textBlock(CompactJson.of(value))), Optional.of(value), false, true);
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
