package dev.omcp.core.mcp.v2025_11_25;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** tools/list and tools/call as MCP 2025-11-25 specifies them. */
class ToolMethodsTest {

    private static McpTestClient clientOf(Gateway gateway) {
        McpTestClient client = new McpTestClient(gateway.mcp(), Principal.anonymous());
        client.initialize("2025-11-25");
        return client;
    }

    @Test
    void toolsList_describesNameTitleSchemasAndAnnotations() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject tool = client.request("tools/list", "{}").getJsonObject("result").getJsonArray("tools").getJsonObject(0);
        assertThat(tool.getString("name")).isEqualTo("echo");
        assertThat(tool.getString("title")).isEqualTo("Echo echo");
        assertThat(tool.getString("description")).isNotBlank();
        assertThat(tool.getJsonObject("inputSchema").getString("type")).isEqualTo("object");
        assertThat(tool.containsKey("outputSchema")).isTrue();
        assertThat(tool.getJsonObject("annotations").getBoolean("readOnlyHint")).isTrue();
    }

    @Test
    void toolsList_pagesWithAnOpaqueCursor() {
        List<EchoTool> tools = IntStream.range(0, 7).mapToObj(i -> new EchoTool("tool" + i)).toList();
        McpTestClient client = clientOf(Gateway.builder().tools(tools).toolsPageSize(3).build());
        List<String> names = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
            JsonObject result = client.request("tools/list", params).getJsonObject("result");
            result.getJsonArray("tools").forEach(t -> names.add(t.asJsonObject().getString("name")));
            cursor = result.containsKey("nextCursor") ? result.getString("nextCursor") : null;
            pages++;
        } while (cursor != null);
        assertThat(pages).isEqualTo(3);
        assertThat(names).containsExactly("tool0", "tool1", "tool2", "tool3", "tool4", "tool5", "tool6");
    }

    @Test
    void toolsList_withAForgedCursor_isInvalidParams() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        assertThat(client.request("tools/list", "{\"cursor\":\"bm9wZQ\"}").getJsonObject("error").getInt("code"))
                .isEqualTo(JsonRpc.INVALID_PARAMS);
    }

    @Test
    void toolsList_withACursorPastTheEnd_isInvalidParams_andNeverIssuesANegativeCursor() {
        List<EchoTool> tools = IntStream.range(0, 7).mapToObj(i -> new EchoTool("tool" + i)).toList();
        McpTestClient client = clientOf(Gateway.builder().tools(tools).toolsPageSize(3).build());
        // crafted the way the gateway encodes its cursors, at offsets it never issues
        for (long offset : new long[] {Integer.MAX_VALUE - 1, Integer.MAX_VALUE, 7, 8}) {
            String cursor = java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(("tools:" + offset).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            JsonObject answer = client.request("tools/list", "{\"cursor\":\"" + cursor + "\"}");
            assertThat(answer.containsKey("error")).as("offset %d: %s", offset, answer).isTrue();
            assertThat(answer.getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(answer.getJsonObject("error").getString("message")).contains("past the end").contains("without a cursor");
        }
    }

    @Test
    void toolsCall_returnsStructuredContentAndTheSameJsonAsText() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject result = client.request("tools/call", "{\"name\":\"echo\",\"arguments\":{\"service\":\"shop/api\"}}")
                .getJsonObject("result");
        assertThat(result.getJsonObject("structuredContent").getString("echo")).isEqualTo("shop/api");
        assertThat(McpTestClient.parse(result.getJsonArray("content").getJsonObject(0).getString("text")))
                .isEqualTo(result.getJsonObject("structuredContent"));
        assertThat(result.containsKey("isError")).isFalse();
    }

    @Test
    void toolsCall_forAnOlderRevision_leavesOutStructuredContent() {
        McpTestClient client = new McpTestClient(Gateway.builder().tool(new EchoTool("echo")).build().mcp(), Principal.anonymous());
        client.initialize("2025-03-26");
        JsonObject result = client.request("tools/call", "{\"name\":\"echo\",\"arguments\":{\"service\":\"a\"}}").getJsonObject("result");
        assertThat(result.containsKey("structuredContent")).isFalse();
        assertThat(result.getJsonArray("content")).hasSize(1);
    }

    @Test
    void invalidArguments_areAnErrorResultListingEveryViolation() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject result = client.request("tools/call",
                "{\"name\":\"echo\",\"arguments\":{\"service\":\"bad service!\",\"limit\":0,\"extra\":1}}").getJsonObject("result");
        assertThat(result.getBoolean("isError")).isTrue();
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(text).contains("arguments.service", "arguments.limit", "arguments.extra");
    }

    @Test
    void missingRequiredArgument_isNamed() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject result = client.request("tools/call", "{\"name\":\"echo\"}").getJsonObject("result");
        assertThat(result.getBoolean("isError")).isTrue();
        assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).contains("arguments.service: is required");
    }

    @Test
    void unknownTool_isAJsonRpcError() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject error = client.request("tools/call", "{\"name\":\"nope\",\"arguments\":{}}").getJsonObject("error");
        assertThat(error.getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.getString("message")).contains("Unknown tool 'nope'");
    }

    @Test
    void toolThatThrows_answersAnErrorResultWithoutItsDetails() {
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).build());
        JsonObject result = client.request("tools/call", "{\"name\":\"echo\",\"arguments\":{\"service\":\"explode\"}}").getJsonObject("result");
        assertThat(result.getBoolean("isError")).isTrue();
        String text = result.getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(text).contains("error id").doesNotContain("secret internal detail");
    }

    @Test
    void hiddenTools_areAbsentFromTheListAndUnknownToCall() {
        ToolVisibility onlyEcho = (principal, name) -> name.equals("echo");
        McpTestClient client = clientOf(Gateway.builder().tool(new EchoTool("echo")).tool(new EchoTool("secret"))
                .toolVisibility(onlyEcho).build());
        JsonArray tools = client.request("tools/list", "{}").getJsonObject("result").getJsonArray("tools");
        assertThat(tools).hasSize(1);
        assertThat(client.request("tools/call", "{\"name\":\"secret\",\"arguments\":{\"service\":\"a\"}}").getJsonObject("error"))
                .isNotNull();
    }

    @Test
    void registeringATool_notifiesAttachedStreams() throws Exception {
        Gateway gateway = Gateway.builder().tool(new EchoTool("echo")).build();
        McpTestClient client = clientOf(gateway);
        List<JsonObject> received = new ArrayList<>();
        try (AutoCloseable ignored = gateway.mcp().attachStream(client.sessionId(), message -> received.add(message))) {
            gateway.tools().register(new EchoTool("late"));
        }
        assertThat(received).extracting(m -> m.getString("method")).containsExactly("notifications/tools/list_changed");
        assertThat(client.request("tools/list", "{}").getJsonObject("result").getJsonArray("tools")).hasSize(2);
    }
}
