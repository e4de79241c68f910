package dev.omcp.app.access;

import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.Optional;

/**
 * Stand-ins for get_topology, get_service_health and generate_postmortem, which other work items
 * add to the gateway: the management routes answer with whatever the tool of that name answers,
 * so these echo who called them with which arguments. Registering them replaces a real tool of the
 * same name in the test gateway only.
 */
final class StandInTools {
    private StandInTools() {}

    static Tool topology() {
        JsonObject input = Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                        .add("namespace", Jsonp.object().add("type", "string").add("maxLength", 63))
                        .add("limit", Jsonp.object().add("type", "integer").add("minimum", 1).add("maximum", 500)))
                .add("additionalProperties", false).build();
        return tool("get_topology", input, call -> ToolResult.structured(Jsonp.object()
                .add("nodes", Jsonp.array().add(Jsonp.object().add("kind", "Service").add("name", "checkout")))
                .add("arguments", call.arguments())
                .add("caller", call.principal().id())
                .add("tenant", call.principal().tenant())
                .build()));
    }

    static Tool serviceHealth() {
        JsonObject input = Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                        .add("service", Jsonp.object().add("type", "string").add("pattern", "^[A-Za-z0-9_.:/-]{1,128}$"))
                        .add("window", Jsonp.object().add("type", "string").add("pattern", "^[1-9][0-9]{0,4}[smhd]$")))
                .add("required", Jsonp.array().add("service"))
                .add("additionalProperties", false).build();
        return tool("get_service_health", input, call -> call.arguments().getString("service").equals("unreachable")
                ? ToolResult.error("no metrics source answered for unreachable")
                : ToolResult.structured(Jsonp.object()
                        .add("service", call.arguments().getString("service"))
                        .add("status", "degraded")
                        .add("window", call.arguments().getString("window", "1h"))
                        .add("tenant", call.principal().tenant())
                        .build()));
    }

    static Tool postmortem() {
        JsonObject input = Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                        .add("service", Jsonp.object().add("type", "string"))
                        .add("duration", Jsonp.object().add("type", "string"))
                        .add("format", Jsonp.object().add("type", "string").add("enum", Jsonp.array().add("markdown").add("json"))))
                .add("required", Jsonp.array().add("service"))
                .add("additionalProperties", false).build();
        return tool("generate_postmortem", input, call -> call.arguments().getString("service").equals("no-data")
                ? ToolResult.error("no metrics source answered; nothing to report for no-data")
                : ToolResult.structured(Jsonp.object()
                        .add("service", call.arguments().getString("service"))
                        .add("window", call.arguments().getString("duration", "1h"))
                        .add("format", call.arguments().getString("format", "markdown"))
                        .add("synopsis", "payments-db slowed down")
                        .add("tenant", call.principal().tenant())
                        .build(), "# Post-mortem"));
    }

    private interface Body {
        ToolResult answer(ToolCall call);
    }

    private static Tool tool(String name, JsonObject input, Body body) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition(name, name, "stand-in for " + name + " in management API tests", input,
                        Optional.of(Jsonp.object().add("type", "object").build()), ToolAnnotations.readOnlyLocal());
            }

            @Override
            public ToolResult call(ToolCall call) {
                return body.answer(call);
            }
        };
    }
}
