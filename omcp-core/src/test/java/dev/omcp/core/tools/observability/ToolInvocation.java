package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.LogLevel;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;

/**
 * Calls a tool the way the dispatcher does: the arguments are checked against the tool's input
 * schema first (a violation is an error result, as {@code tools/call} answers it), and a structured
 * result is checked against the tool's output schema, since MCP clients validate it too.
 */
final class ToolInvocation {
    private static final JsonSchemaValidator VALIDATOR = new JsonSchemaValidator();

    private ToolInvocation() {}

    static ToolResult call(Tool tool, String argumentsJson) {
        return call(tool, Principal.anonymous(), argumentsJson);
    }

    static ToolResult call(Tool tool, Principal principal, String argumentsJson) {
        JsonObject arguments = Jsonp.reader(argumentsJson).readObject();
        List<String> violations = VALIDATOR.validate(tool.definition().inputSchema(), arguments, "arguments");
        if (!violations.isEmpty()) {
            return ToolResult.error("Invalid arguments for " + tool.definition().name() + ": " + String.join("; ", violations));
        }
        ToolResult result = tool.call(toolCall(principal, arguments));
        result.structuredContent().ifPresent(structured -> assertThat(
                VALIDATOR.validate(tool.definition().outputSchema().orElseThrow(), structured, "structuredContent"))
                .as("%s output matches its output schema: %s", tool.definition().name(), structured).isEmpty());
        return result;
    }

    /** Calls the tool directly, as an embedding service could, without the dispatcher's schema check. */
    static ToolResult callWithoutSchemaCheck(Tool tool, String argumentsJson) {
        return tool.call(toolCall(Principal.anonymous(), Jsonp.reader(argumentsJson).readObject()));
    }

    private static ToolCall toolCall(Principal principal, JsonObject arguments) {
        return new ToolCall() {
            @Override
            public Principal principal() {
                return principal;
            }

            @Override
            public JsonObject arguments() {
                return arguments;
            }

            @Override
            public void progress(double progress, double total, String message) {
                // not observed by these tests
            }

            @Override
            public void log(LogLevel level, String logger, JsonValue data) {
                // not observed by these tests
            }

            @Override
            public JsonObject requestFromClient(String method, JsonObject params, Duration timeout) {
                throw new UnsupportedOperationException("the observability tools never ask the client");
            }
        };
    }

    /** The structured result of a successful call. */
    static JsonObject structured(ToolResult result) {
        assertThat(result.isError()).as(result.firstText()).isFalse();
        return result.structuredContent().orElseThrow();
    }
}
