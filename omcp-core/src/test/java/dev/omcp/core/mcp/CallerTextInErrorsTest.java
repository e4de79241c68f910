package dev.omcp.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.guidance.AgentGuide;
import dev.omcp.core.guidance.IncidentPrompts;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptArgument;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Errors that quote what a caller sent (a tool, method, prompt or resource name, a header) show it
 * as every other refusal of the gateway does: on one line, every invisible character as {@code ?}
 * and cut short. The message reaches an agent's model and often a person's screen; a bidi override
 * in it would reorder what is read there, and JSON escaping keeps such characters as they are.
 */
class CallerTextInErrorsTest {
    /** A right-to-left override, a zero-width space, an escape, a line separator and a lone surrogate. */
    private static final String INVISIBLE = "\u202E\u200B\u001b\u2028\uD800";
    private static final String HOSTILE = "evil" + INVISIBLE + "gnp.exe" + "x".repeat(1_500);
    /** Longer than any quoted part of an error may be, yet far shorter than the hostile name. */
    private static final int BOUND = 400;

    private final McpTestClient client = new McpTestClient(withEverything().mcp(), Principal.anonymous());

    private static Gateway withEverything() {
        Gateway.Builder builder = Gateway.builder().tool(new EchoTool("echo")).resources(AgentGuide.builtin());
        IncidentPrompts.all().forEach(builder::prompt);
        return builder.build();
    }

    @BeforeEach
    void initialize() {
        client.initialize("2025-11-25");
    }

    @Test
    void anUnknownTool_isQuotedPrintableAndShort() {
        String params = Jsonp.object().add("name", HOSTILE).add("arguments", Jsonp.object()).build().toString();

        assertQuotedSafely(errorMessage(client.request("tools/call", params))).startsWith("Unknown tool 'evil?????gnp.exe");
    }

    @Test
    void anUnknownMethod_isQuotedPrintableAndShort() {
        String body = Jsonp.object().add("jsonrpc", "2.0").add("id", 1).add("method", HOSTILE).build().toString();
        McpReply.Response reply = (McpReply.Response) client.raw(body);

        assertQuotedSafely(errorMessage(McpTestClient.parse(reply.json()))).startsWith("Method not found: evil?????gnp.exe");
    }

    @Test
    void anUnknownPrompt_isQuotedPrintableAndShort() {
        String params = Jsonp.object().add("name", HOSTILE).build().toString();

        assertQuotedSafely(errorMessage(client.request("prompts/get", params))).startsWith("Unknown prompt 'evil?????gnp.exe");
    }

    @Test
    void anUnknownPromptToComplete_isQuotedPrintableAndShort() {
        String params = Jsonp.object()
                .add("ref", Jsonp.object().add("type", "ref/prompt").add("name", HOSTILE))
                .add("argument", Jsonp.object().add("name", "service").add("value", ""))
                .build().toString();

        assertQuotedSafely(errorMessage(client.request("completion/complete", params))).startsWith("Unknown prompt 'evil?????gnp.exe");
    }

    @Test
    void anUnknownResource_isQuotedPrintableAndShort() {
        String params = Jsonp.object().add("uri", "omcp://" + HOSTILE).build().toString();
        JsonObject answer = client.request("resources/read", params);

        assertQuotedSafely(errorMessage(answer)).startsWith("Resource not found: omcp://evil?????gnp.exe");
        // the data member is for the client's code, which matches it against the URI it sent: kept exact
        assertThat(answer.getJsonObject("error").getJsonObject("data").getString("uri")).isEqualTo("omcp://" + HOSTILE);
    }

    @Test
    void anUnsupportedProtocolVersionHeader_isQuotedPrintableAndShort() {
        String message = withEverything().mcp().unsupportedProtocolVersion(HOSTILE).orElseThrow();

        assertQuotedSafely(message).startsWith("Unsupported MCP-Protocol-Version 'evil?????gnp.exe");
    }

    @Test
    void aRepeatedKey_isQuotedPrintableAndShort() {
        String key = Jsonp.value(HOSTILE.substring(0, 200)).toString();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{" + key + ":1," + key + ":2}}";
        McpReply.Refused reply = (McpReply.Refused) client.raw(body);

        assertQuotedSafely(errorMessage(reply.body())).contains("repeats a key", "evil?????gnp.exe");
    }

    @Test
    void anEmbeddersPromptRefusingAnArgument_hasItsMessageQuotedPrintableAndShort() {
        // an embedder's prompt that echoes the caller's argument into its refusal, as it is
        Prompt echoing = new Prompt() {
            @Override
            public PromptDefinition definition() {
                return new PromptDefinition(
                        "echoing", "Echoing", "Refuses every service", List.of(new PromptArgument("service", "s", true)));
            }

            @Override
            public List<JsonObject> render(Map<String, String> arguments, Principal principal) {
                throw new IllegalArgumentException("argument service " + arguments.get("service") + " is not a service name");
            }
        };
        McpTestClient embedded = new McpTestClient(Gateway.builder().prompt(echoing).build().mcp(), Principal.anonymous());
        embedded.initialize("2025-11-25");
        String params = Jsonp.object().add("name", "echoing").add("arguments", Jsonp.object().add("service", HOSTILE)).build().toString();

        assertQuotedSafely(errorMessage(embedded.request("prompts/get", params)))
                .startsWith("prompt 'echoing': argument service evil?????gnp.exe");
    }

    @Test
    void anEmbeddersPromptNameInAMissingArgumentError_isQuotedPrintableAndShort() {
        Prompt named = new Prompt() {
            @Override
            public PromptDefinition definition() {
                return new PromptDefinition(HOSTILE, "Hostile", "Needs a service", List.of(new PromptArgument("service", "s", true)));
            }

            @Override
            public List<JsonObject> render(Map<String, String> arguments, Principal principal) {
                return List.of();
            }
        };
        McpTestClient embedded = new McpTestClient(Gateway.builder().prompt(named).build().mcp(), Principal.anonymous());
        embedded.initialize("2025-11-25");
        String params = Jsonp.object().add("name", HOSTILE).build().toString();

        assertQuotedSafely(errorMessage(embedded.request("prompts/get", params)))
                .startsWith("prompt 'evil?????gnp.exe").contains("needs the arguments");
    }

    private static String errorMessage(JsonObject answer) {
        assertThat(answer.containsKey("error")).as("%s", answer).isTrue();
        return answer.getJsonObject("error").getString("message");
    }

    private static AbstractStringAssert<?> assertQuotedSafely(String message) {
        assertThat(message.codePoints().filter(CallerTextInErrorsTest::invisible).toArray())
                .as("invisible characters in %s", message).isEmpty();
        assertThat(message.length()).as(message).isLessThan(BOUND);
        return assertThat(message);
    }

    private static boolean invisible(int c) {
        int type = Character.getType(c);
        return Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }
}
