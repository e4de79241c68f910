package dev.omcp.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookRegistration;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The management API's tool calls take the same dispatcher and interceptor chain as tools/call on /mcp. */
class InProcessToolCallsTest {
    private static final Principal ALICE = new Principal("user:alice", "Alice", AuthKind.SESSION, "acme", Set.of("operator"),
            Optional.of("sid-1"));
    private final List<McpCall> intercepted = new CopyOnWriteArrayList<>();
    private final HookRegistry hooks = new HookRegistry();

    private Gateway gateway(McpInterceptor extra) {
        return Gateway.builder()
                .tool(new EchoTool("echo"))
                .tool(new EchoTool("hidden"))
                .toolVisibility((principal, tool) -> !tool.equals("hidden"))
                .interceptor((call, next) -> {
                    intercepted.add(call);
                    return next.proceed(call);
                })
                .interceptor(extra)
                .hooks(hooks)
                .build();
    }

    private Gateway gateway() {
        return gateway((call, next) -> next.proceed(call));
    }

    private static JsonObject args(String service) {
        return Jsonp.object().add("service", service).build();
    }

    @Test
    void aCallRunsTheToolAsTheCaller_throughEveryInterceptor_markedInProcess() {
        ToolOutcome outcome = gateway().invokeTool().invoke(ALICE, "echo", args("payments/db"));

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isFalse();
            assertThat(completed.result().structuredContent()).hasValueSatisfying(s -> assertThat(s.getString("echo")).isEqualTo("payments/db"));
        });
        assertThat(intercepted).singleElement().satisfies(call -> {
            assertThat(call.method()).isEqualTo("tools/call");
            assertThat(call.principal()).isEqualTo(ALICE);
            assertThat(call.transport()).isEqualTo(McpTransport.IN_PROCESS);
            assertThat(call.session()).isEmpty();
            assertThat(call.params().getString("name")).isEqualTo("echo");
        });
    }

    @Test
    void hooksSeeTheCall_andAHookThatRefusesAnswersTheToolErrorOfSpec61() {
        List<String> principals = new CopyOnWriteArrayList<>();
        hooks.register(new HookRegistration("guard", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            principals.add(context.principal() + "@" + context.tenant());
            return payload.getJsonObject("args").getString("service").equals("forbidden")
                    ? HookResult.deny("service forbidden by policy hook") : HookResult.proceed();
        }));
        Gateway gateway = gateway();

        assertThat(gateway.invokeTool().invoke(ALICE, "echo", args("payments"))).isInstanceOf(ToolOutcome.Completed.class);
        ToolOutcome refused = gateway.invokeTool().invoke(ALICE, "echo", args("forbidden"));

        assertThat(principals).containsExactly("user:alice@acme", "user:alice@acme");
        assertThat(refused).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isTrue();
            assertThat(completed.result().firstText()).isEqualTo("service forbidden by policy hook");
        });
    }

    @Test
    void anInterceptorRefusal_isReportedWithItsBody_andTheToolDoesNotRun() {
        JsonObject body = Jsonp.object().add("code", "OMCP_IDENTITY_RATE_LIMIT").add("retryAfterSeconds", 7).build();
        Gateway gateway = gateway((call, next) -> new McpResult.Refused(Refusal.RATE_LIMITED, body));

        ToolOutcome outcome = gateway.invokeTool().invoke(ALICE, "echo", args("payments"));

        assertThat(outcome).isEqualTo(new ToolOutcome.Refused("echo", Refusal.RATE_LIMITED, body));
    }

    @Test
    void anUnknownTool_andAToolTheCallerMayNotSee_areBothUnknown() {
        Gateway gateway = gateway();

        assertThat(gateway.invokeTool().invoke(ALICE, "nope", args("x"))).isEqualTo(new ToolOutcome.UnknownTool("nope"));
        assertThat(gateway.invokeTool().invoke(ALICE, "hidden", args("x"))).isEqualTo(new ToolOutcome.UnknownTool("hidden"));
        assertThat(intercepted).isEmpty();
    }

    @Test
    void argumentsTheSchemaRefuses_comeBackAsTheToolErrorAgentsGet() {
        ToolOutcome outcome = gateway().invokeTool().invoke(ALICE, "echo", Jsonp.object().add("limit", 5).build());

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isTrue();
            assertThat(completed.result().firstText()).contains("Invalid arguments for echo").contains("service");
        });
    }

    @Test
    void aToolWhoseRecursionOverflowsTheStack_isAToolError_andTheGatewayGoesOn() {
        // a regular expression over a long hostile text recurses past the stack: that call fails, nothing else
        ToolOutcome outcome = gateway().invokeTool().invoke(ALICE, "echo", args("recurse"));

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isTrue();
            assertThat(completed.result().firstText()).contains("failed unexpectedly");
        });
        assertThat(gateway().invokeTool().invoke(ALICE, "echo", args("payments"))).isInstanceOf(ToolOutcome.Completed.class);
    }

    @Test
    void aToolThatThrows_isAToolErrorWithoutItsInternals() {
        ToolOutcome outcome = gateway().invokeTool().invoke(ALICE, "echo", args("explode"));

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isTrue();
            assertThat(completed.result().firstText()).contains("failed unexpectedly").doesNotContain("secret internal detail");
        });
    }

    @Test
    void textParameters_areTypedByTheInputSchema_andFixedArgumentsWin() {
        ToolOutcome outcome = gateway().invokeTool().invokeWithParameters(ALICE, "echo",
                Map.of("limit", List.of("5"), "service", List.of("ignored")), args("checkout"));

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class,
                completed -> assertThat(completed.result().structuredContent().orElseThrow().getString("echo")).isEqualTo("checkout"));
        assertThat(intercepted.getFirst().params().getJsonObject("arguments"))
                .isEqualTo(Jsonp.object().add("limit", 5).add("service", "checkout").build());
    }

    @Test
    void textParametersThatDoNotFit_listEveryViolation_andNothingIsDispatched() {
        ToolOutcome outcome = gateway().invokeTool().invokeWithParameters(ALICE, "echo",
                Map.of("limit", List.of("many"), "colour", List.of("red")), JsonObject.EMPTY_JSON_OBJECT);
        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.InvalidArguments.class,
                invalid -> assertThat(invalid.violations()).singleElement().asString().contains("arguments.limit").contains("not an integer"));

        ToolOutcome schema = gateway().invokeTool().invokeWithParameters(ALICE, "echo",
                Map.of("limit", List.of("500"), "colour", List.of("red")), JsonObject.EMPTY_JSON_OBJECT);
        assertThat(schema).isInstanceOfSatisfying(ToolOutcome.InvalidArguments.class, invalid -> {
            assertThat(String.join("\n", invalid.violations())).contains("limit").contains("colour").contains("service");
            assertThat(invalid.violations()).hasSizeGreaterThanOrEqualTo(3);
        });
        assertThat(intercepted).isEmpty();
    }
}
