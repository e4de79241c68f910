package dev.omcp.core.guidance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The guide and the prompts through the dispatcher: resources/read, prompts/get and their refusals. */
class GuidanceOverMcpTest {
    private final Gateway gateway = withGuidance();
    private final McpTestClient client = new McpTestClient(gateway.mcp(), Principal.anonymous());

    private static Gateway withGuidance() {
        Gateway.Builder builder = Gateway.builder().resources(AgentGuide.builtin());
        IncidentPrompts.all().forEach(builder::prompt);
        return builder.build();
    }

    @Test
    void theGuide_isListedAndRead() {
        client.initialize("2025-11-25");

        assertThat(client.request("resources/list", "{}").getJsonObject("result").getJsonArray("resources").getJsonObject(0)
                .getString("uri")).isEqualTo(AgentGuide.URI);
        JsonObject read = client.request("resources/read", "{\"uri\":\"" + AgentGuide.URI + "\"}").getJsonObject("result");
        assertThat(read.getJsonArray("contents").getJsonObject(0).getString("text")).startsWith("# Using OMCP");
    }

    @Test
    void aPrompt_isRenderedWithItsDescription() {
        client.initialize("2025-11-25");

        JsonObject result = client.request("prompts/get",
                "{\"name\":\"write-postmortem\",\"arguments\":{\"service\":\"payments-db\",\"duration\":\"2h\"}}").getJsonObject("result");

        assertThat(result.getString("description")).startsWith("Draft a post-mortem");
        assertThat(result.getJsonArray("messages").getJsonObject(0).getJsonObject("content").getString("text"))
                .contains("service `payments-db`, duration `2h`");
    }

    @Test
    void aRefusedPromptArgument_isAnInvalidParamsErrorThatSaysWhatIsAllowed() {
        client.initialize("2025-11-25");

        JsonObject error = client.request("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":{\"service\":\"a b\"}}")
                .getJsonObject("error");

        assertThat(error.getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.getString("message")).isEqualTo("prompt 'triage-incident': argument service 'a b' is not a service name: use 1 "
                + "to 128 of letters, digits, '_', '.', ':', '/' and '-' (call list_services for the names)");
    }

    @Test
    void anArgumentThatIsNotAString_isRefusedQuotingItsNameShortAndOnOneLine() {
        client.initialize("2025-11-25");
        String key = "k\\n" + "x".repeat(5_000);

        JsonObject error = client.request("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":{\"" + key + "\":7}}")
                .getJsonObject("error");

        assertThat(error.getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.getString("message")).startsWith("prompt argument 'k?xxx").endsWith("…' must be a string").hasSizeLessThan(120);
    }

    @Test
    void anUnknownPromptArgument_isRefusedNamingThePromptOnce() {
        client.initialize("2025-11-25");

        JsonObject error = client.request("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":{\"window\":\"1h\"}}")
                .getJsonObject("error");

        assertThat(error.getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.getString("message")).isEqualTo("prompt 'triage-incident': unknown argument 'window'; it takes only [service]");
    }

    @Test
    void promptsGetWithoutAName_isInvalidParamsSayingSo() {
        client.initialize("2025-11-25");

        for (String params : new String[] {"{}", "{\"name\":7}", "{\"arguments\":{}}"}) {
            JsonObject error = client.request("prompts/get", params).getJsonObject("error");
            assertThat(error.getInt("code")).as(params).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(error.getString("message")).as(params).startsWith("prompts/get needs params.name");
        }
    }

    @Test
    void nullArguments_areNoArguments_asForToolsCall() {
        client.initialize("2025-11-25");

        assertThat(client.request("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":null}").getJsonObject("result")
                .getJsonArray("messages")).isNotEmpty();
        assertThat(client.request("prompts/get", "{\"name\":\"write-postmortem\",\"arguments\":null}").getJsonObject("error")
                .getString("message")).isEqualTo("prompt 'write-postmortem' needs the arguments [service]");
        assertThat(client.request("prompts/get", "{\"name\":\"triage-incident\",\"arguments\":[]}").getJsonObject("error")
                .getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
    }

    @Test
    void aMissingRequiredArgument_isRefusedBeforeThePromptRenders() {
        client.initialize("2025-11-25");

        JsonObject error = client.request("prompts/get", "{\"name\":\"write-postmortem\",\"arguments\":{}}").getJsonObject("error");

        assertThat(error.getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(error.getString("message")).isEqualTo("prompt 'write-postmortem' needs the arguments [service]");
    }

    @Test
    void subscribingToAResourceNoProviderServes_isResourceNotFound_andTheGuideCanBeSubscribed() {
        client.initialize("2025-11-25");

        JsonObject error = client.request("resources/subscribe", "{\"uri\":\"omcp://nope\"}").getJsonObject("error");
        assertThat(error.getInt("code")).isEqualTo(JsonRpc.RESOURCE_NOT_FOUND);
        assertThat(error.getString("message")).contains("omcp://nope", "resources/list");
        assertThat(client.request("resources/subscribe", "{\"uri\":\"" + AgentGuide.URI + "\"}").containsKey("result")).isTrue();
    }

    @Test
    void aCursorThisServerNeverIssued_isRefusedByTheOnePageLists() {
        client.initialize("2025-11-25");

        for (String method : new String[] {"resources/list", "resources/templates/list", "prompts/list"}) {
            JsonObject error = client.request(method, "{\"cursor\":\"abc\"}").getJsonObject("error");
            assertThat(error.getInt("code")).as(method).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(error.getString("message")).as(method).contains(method + " answers in one page");
        }
        assertThat(client.request("prompts/list", "{}").getJsonObject("result").getJsonArray("prompts")).isNotEmpty();
    }
}
