package dev.omcp.core.mcp.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A structured tool result is serialized once: its text (the serialized structured content) is
 * spliced in as {@code structuredContent}. The answer must be exactly what serializing the result
 * object gives, whatever the content holds.
 */
class ToolResultSerializationTest {
    private static final JsonObject AWKWARD = Jsonp.object()
            .add("line", "quote \" backslash \\ newline \n tab \t nul \u0000 bell \u0007 unicode é 🚀 </script>")
            .add("n", 12.5).add("big", 12345678901234L).add("ok", true).addNull("none")
            .add("list", Jsonp.array().add(1).add("two").add(Jsonp.object().add("k", "v")))
            .build();

    @Test
    void aSplicedResultIsByteForByteTheSerializedResultObject() {
        McpResult.Success success = ToolMethods.success(ToolResult.structured(AWKWARD), ProtocolRevision.V2025_11_25);
        assertThat(success.serialized()).isNotNull();
        assertThat(success.json()).isEqualTo(success.result().toString());
        assertThat(success.result().getJsonObject("structuredContent")).isEqualTo(AWKWARD);
        assertThat(success.result().getJsonArray("content").getJsonObject(0).getString("text")).isEqualTo(AWKWARD.toString());
    }

    @Test
    void aResultOfJsonLogLinesIsSplicedExactly() {
        // log lines that are JSON themselves: the text form escapes every few characters
        var lines = Jsonp.array();
        for (int i = 0; i < 200; i++) {
            lines.add(Jsonp.object().add("line", "{\"level\": \"error\", \"msg\": \"path C:\\\\tmp\\n" + i + "\", \"caf\u00e9\": 1}"));
        }
        JsonObject logs = Jsonp.object().add("lines", lines).add("note", "tab\t and \u001f").build();
        McpResult.Success success = ToolMethods.success(ToolResult.structured(logs), ProtocolRevision.V2025_11_25);
        // the spliced text itself, not a fallback serialization of the result object
        assertThat(success.serialized()).isEqualTo(success.result().toString());
    }

    @Test
    void aFirstBlockWithMoreThanTypeAndTextAndFurtherBlocksAreSerializedAsTheyAre() {
        String text = AWKWARD.toString();
        JsonObject annotated = Jsonp.object().add("type", "text").add("text", text)
                .add("annotations", Jsonp.object().add("audience", Jsonp.array().add("assistant"))).build();
        JsonObject textFirst = Jsonp.object().add("text", text).add("type", "text").build();
        JsonObject second = Jsonp.object().add("type", "text").add("text", "second \"block\"").build();
        for (List<JsonObject> content : List.of(List.of(annotated, second), List.of(textFirst), List.of(ToolResult.textBlock(text), second))) {
            McpResult.Success success = ToolMethods.success(new ToolResult(content, Optional.of(AWKWARD), false, true),
                    ProtocolRevision.V2025_11_25);
            assertThat(success.serialized()).isEqualTo(success.result().toString());
        }
    }

    @Test
    void anErrorResultKeepsIsErrorAfterTheStructuredContent() {
        ToolResult error = new ToolResult(List.of(ToolResult.textBlock(AWKWARD.toString())), Optional.of(AWKWARD), true, true);
        McpResult.Success success = ToolMethods.success(error, ProtocolRevision.V2025_11_25);
        assertThat(success.json()).isEqualTo(success.result().toString()).endsWith(",\"isError\":true}");
    }

    @Test
    void anOlderRevisionWithoutStructuredOutputGetsOnlyTheContent() {
        McpResult.Success success = ToolMethods.success(ToolResult.structured(AWKWARD), ProtocolRevision.V2025_03_26);
        assertThat(success.result().containsKey("structuredContent")).isFalse();
        assertThat(success.json()).isEqualTo(success.result().toString());
    }

    @Test
    void aTextThatIsNotTheStructuredJsonIsSerializedNormally() {
        McpResult.Success success = ToolMethods.success(ToolResult.structured(AWKWARD, "# markdown"), ProtocolRevision.V2025_11_25);
        assertThat(success.serialized()).isNull();
        assertThat(success.json()).contains("# markdown").contains("\"structuredContent\":" + AWKWARD);
    }

    @Test
    void claimingTheTextIsTheStructuredJsonWhenItIsNotIsRefused() {
        // assertions are on under Surefire, where the claim is checked
        assertThatThrownBy(() -> new ToolResult(List.of(ToolResult.textBlock("{}")), Optional.of(AWKWARD), false, true))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> new ToolResult(List.of(ToolResult.textBlock("{}")), Optional.empty(), false, true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
