package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.schema.JsonSchemaValidator;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.LogLevel;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;

/**
 * Calls a tool the way the dispatcher does: arguments validated against the input schema first
 * (a violation is an error result), then the tool; a structured result must match the tool's
 * output schema and its text must be the same JSON.
 */
final class ToolHarness {
    private static final JsonSchemaValidator VALIDATOR = new JsonSchemaValidator();

    private ToolHarness() {}

    static ToolResult call(Tool tool, String arguments) {
        return call(tool, arguments, Principal.anonymous());
    }

    static ToolResult call(Tool tool, String arguments, Principal principal) {
        JsonObject args = Json.createReader(new StringReader(arguments)).readObject();
        List<String> violations = VALIDATOR.validate(tool.definition().inputSchema(), args, "arguments");
        if (!violations.isEmpty()) {
            return ToolResult.error("Invalid arguments for " + tool.definition().name() + ": " + String.join("; ", violations));
        }
        ToolResult result = tool.call(new Call(principal, args));
        result.structuredContent().ifPresent(structured -> {
            assertThat(VALIDATOR.validate(tool.definition().outputSchema().orElseThrow(), structured, "structuredContent"))
                    .as("output schema of " + tool.definition().name()).isEmpty();
            assertThat(result.firstText()).isEqualTo(structured.toString());
        });
        return result;
    }

    /** The structured result of a call that must succeed. */
    static JsonObject ok(Tool tool, String arguments) {
        return ok(tool, arguments, Principal.anonymous());
    }

    static JsonObject ok(Tool tool, String arguments, Principal principal) {
        ToolResult result = call(tool, arguments, principal);
        assertThat(result.isError()).as(result.firstText()).isFalse();
        return result.structuredContent().orElseThrow();
    }

    /** The message of a call that must fail. */
    static String error(Tool tool, String arguments) {
        return error(tool, arguments, Principal.anonymous());
    }

    /** The message of a call by {@code principal} that must fail. */
    static String error(Tool tool, String arguments, Principal principal) {
        ToolResult result = call(tool, arguments, principal);
        assertThat(result.isError()).as(result.firstText()).isTrue();
        return result.firstText();
    }

    private record Call(Principal principal, JsonObject arguments) implements ToolCall {
        @Override
        public void progress(double progress, double total, String message) {}

        @Override
        public void log(LogLevel level, String logger, JsonValue data) {}

        @Override
        public JsonObject requestFromClient(String method, JsonObject params, Duration timeout) {
            throw new UnsupportedOperationException("tool tests have no client");
        }
    }
}
