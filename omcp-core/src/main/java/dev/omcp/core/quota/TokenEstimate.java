package dev.omcp.core.quota;

import dev.omcp.sdk.json.CompactJson;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * How many tokens an answer costs (DECISIONS.md): {@code ceil(characters / 4 × 1.05)}, an estimate
 * that over-counts by about 5 % (spec 8) rather than tokenizing.
 *
 * <p>The characters are those of the text the model reads: the {@code text} of every {@code text}
 * content block of the {@code CallToolResult}, counted as Java {@code char}s (UTF-16 code units, so a
 * character outside the Basic Multilingual Plane, an emoji, counts twice). The same JSON in
 * {@code structuredContent} is not counted again. A result without any text block (a hook may rewrite
 * a result so) is counted by its {@code structuredContent} serialized compactly.
 */
public final class TokenEstimate {
    private TokenEstimate() {}

    /** The tokens of {@code characters} characters: {@code ceil(characters × 1.05 / 4)}. */
    public static long tokens(long characters) {
        // 1.05 / 4 = 21 / 80, in integers: no rounding error at any size
        return Math.ceilDiv(characters * 21, 80);
    }

    /** The characters of {@code result}, a {@code CallToolResult}, as described above. */
    public static long characters(JsonObject result) {
        long characters = 0;
        boolean anyText = false;
        if (result.get("content") instanceof jakarta.json.JsonArray blocks) {
            for (JsonValue block : blocks) {
                if (block instanceof JsonObject object && object.get("text") instanceof JsonString text
                        && object.get("type") instanceof JsonString type && type.getString().equals("text")) {
                    characters += text.getString().length();
                    anyText = true;
                }
            }
        }
        if (!anyText && result.get("structuredContent") instanceof JsonObject structured) {
            characters = CompactJson.of(structured).length();
        }
        return characters;
    }

    /** The tokens of {@code result}. */
    public static long of(JsonObject result) {
        return tokens(characters(result));
    }
}
