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
