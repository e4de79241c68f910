package dev.omcp.core.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.core.tools.ToolVisibility;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolOutcome;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * DECISIONS.md, "Agent transport": a tool outside the caller's key list is absent from {@code tools/list} and unknown to
 * {@code tools/call}. The list comes with the {@link ApiKey}, so an embedder gives it through {@code Gateway.builder()}
 * as the launcher does ({@code OMCP_KEY_TOOLS}).
 */
class KeyToolListTest {
    private static final String LIMITED_TOKEN = "limited-0123456789abcdef";
    private static final String OPS_TOKEN = "ops-token-0123456789abcdef";

    private static Gateway.Builder builder() {
        return Gateway.builder().tool(new EchoTool("alpha")).tool(new EchoTool("beta")).tool(new EchoTool("gamma"))
                .apiKeys(List.of(ApiKey.of("ci", LIMITED_TOKEN, "", AllowLists.none().withTools(List.of("alpha", "beta"))),
                        ApiKey.of("ops", OPS_TOKEN, "")));
    }

    private static McpTestClient client(Gateway gateway, String token) {
        AgentAuthResult result = gateway.agentAuthentication().authenticate(Optional.of(token));
        McpTestClient client = new McpTestClient(gateway.mcp(), ((AgentAuthResult.Authenticated) result).principal());
        client.initialize("2025-11-25");
        return client;
    }

    private static List<String> listed(McpTestClient client) {
        return client.request("tools/list", "{}").getJsonObject("result").getJsonArray("tools").stream()
                .map(JsonValue::asJsonObject).map(t -> t.getString("name")).toList();
    }

    private static JsonObject callError(McpTestClient client, String tool) {
        return client.request("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{\"service\":\"api\"}}").getJsonObject("error");
    }

    @Test
    void aKeyWithAToolList_listsOnlyThoseTools_andAnyOtherIsAsUnknownAsAToolThatDoesNotExist() {
        McpTestClient limited = client(builder().build(), LIMITED_TOKEN);

        assertThat(listed(limited)).containsExactly("alpha", "beta");
        JsonObject hidden = callError(limited, "gamma");
        JsonObject missing = callError(limited, "gammb");
        assertThat(hidden).as("gamma is refused").isNotNull();
        assertThat(hidden.getInt("code")).isEqualTo(missing.getInt("code"));
        assertThat(hidden.getString("message").replace("gamma", "gammb")).isEqualTo(missing.getString("message"));
        assertThat(limited.request("tools/call", "{\"name\":\"alpha\",\"arguments\":{\"service\":\"api\"}}")
                .getJsonObject("result").getBoolean("isError", false)).isFalse();
    }

    @Test
    void aKeyWithoutAList_seesEveryTool() {
        assertThat(listed(client(builder().build(), OPS_TOKEN))).containsExactly("alpha", "beta", "gamma");
    }

    @Test
    void anEmbeddersVisibility_narrowsAKeysList_butCannotWidenIt() {
        assertThat(listed(client(builder().toolVisibility(ToolVisibility.everything()).build(), LIMITED_TOKEN)))
                .as("everything() does not lift the key's list").containsExactly("alpha", "beta");
        ToolVisibility noAlpha = (principal, tool) -> !tool.equals("alpha");
        Gateway narrowed = builder().toolVisibility(noAlpha).build();
        assertThat(listed(client(narrowed, LIMITED_TOKEN))).containsExactly("beta");
        assertThat(listed(client(narrowed, OPS_TOKEN))).containsExactly("beta", "gamma");
    }

    @Test
    void onlyACallerWithAToolList_losesTheCachedToolsListAnswer() {
        ToolVisibility callers = ToolVisibility.callersAllowList();

        assertThat(callers.seesEverything(Principal.apiKey("ops", ""))).isTrue();
        assertThat(callers.seesEverything(Principal.apiKey("ops", "", AllowLists.none().withSources(List.of("prom")))))
                .as("a source list leaves every tool").isTrue();
        assertThat(callers.seesEverything(Principal.apiKey("ci", "", AllowLists.none().withTools(List.of("alpha"))))).isFalse();
        assertThat(callers.and(ToolVisibility.everything()).seesEverything(Principal.anonymous())).isTrue();
    }

    @Test
    void aToolRunInProcess_asAPrincipalWithAList_isRefusedOutsideIt() {
        Gateway gateway = builder().build();
        Principal limited = Principal.apiKey("ci", "", AllowLists.none().withTools(List.of("alpha")));

        ToolOutcome outcome = gateway.invokeTool().invoke(limited, "beta", JsonObject.EMPTY_JSON_OBJECT);

        assertThat(outcome).isInstanceOf(ToolOutcome.UnknownTool.class);
    }
}
