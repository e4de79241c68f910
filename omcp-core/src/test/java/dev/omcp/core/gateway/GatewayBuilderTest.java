package dev.omcp.core.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.auth.ApiKey;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.prompts.Prompt;
import dev.omcp.ports.prompts.PromptDefinition;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What an embedding service gets when it assembles the gateway wrong: a refusal at {@code build()}
 * that names the problem, not a gateway that quietly serves something else.
 */
class GatewayBuilderTest {

    private record Named(String name, String answer) implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition(name, name, "answers " + answer, Jsonp.object().add("type", "object").build(), Optional.empty(),
                    ToolAnnotations.readOnlyLocal());
        }

        @Override
        public ToolResult call(ToolCall call) {
            return ToolResult.structured(Jsonp.object().add("answer", answer).build());
        }
    }

    private static Prompt prompt(String name) {
        return new Prompt() {
            @Override
            public PromptDefinition definition() {
                return new PromptDefinition(name, name, "a prompt", List.of());
            }

            @Override
            public List<JsonObject> render(Map<String, String> arguments, Principal principal) {
                return List.of();
            }
        };
    }

    @Test
    void twoToolsOfOneName_areRefused_ratherThanTheLaterHidingTheEarlier() {
        Gateway.Builder builder = Gateway.builder().tool(new Named("order_count", "ours")).tool(new Named("order_count", "theirs"));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two tools are named 'order_count'");
    }

    @Test
    void twoPromptsOfOneName_areRefused() {
        Gateway.Builder builder = Gateway.builder().prompt(prompt("triage")).prompt(prompt("triage"));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two prompts are named 'triage'");
    }

    @Test
    void distinctNames_buildAGatewayThatServesEveryTool() {
        Gateway gateway = Gateway.builder().tools(List.of(new Named("a", "1"), new Named("b", "2"))).prompt(prompt("a")).build();

        assertThat(gateway.tools().snapshot().tools()).extracting(t -> t.definition().name()).containsExactly("a", "b");
        assertThat(gateway.invokeTool().invoke(Principal.anonymous(), "b", JsonValue.EMPTY_JSON_OBJECT))
                .isInstanceOfSatisfying(ToolOutcome.Completed.class,
                        c -> assertThat(c.result().structuredContent().orElseThrow().getString("answer")).isEqualTo("2"));
    }

    @Test
    void nullArguments_areRefusedWhereTheyAreGiven_namingTheArgument() {
        assertThatThrownBy(() -> Gateway.builder().tools(null)).isInstanceOf(NullPointerException.class).hasMessage("tools");
        assertThatThrownBy(() -> Gateway.builder().apiKeys(null)).isInstanceOf(NullPointerException.class).hasMessage("keys");
        assertThatThrownBy(() -> Gateway.builder().apiKeys(Arrays.asList(ApiKey.of("k", "0123456789abcdef", ""), null)))
                .isInstanceOf(NullPointerException.class).hasMessage("an API key is null");
        assertThatThrownBy(() -> Gateway.builder().transports(null)).isInstanceOf(NullPointerException.class).hasMessage("transports");
        assertThatThrownBy(() -> Gateway.builder().tool(null)).isInstanceOf(NullPointerException.class).hasMessage("tool");
    }

    @Test
    void theRequestRate_limitsEachApiKey_sixtyAMinuteByDefault_andPerKeyOverridesReplaceIt() {
        ManualClock clock = new ManualClock(java.time.Instant.parse("2026-03-01T10:00:00Z"));
        Gateway gateway = Gateway.builder().clock(clock)
                .apiKeys(List.of(ApiKey.of("ci", "0123456789abcdef", ""), ApiKey.of("bot", "fedcba9876543210", ""),
                        ApiKey.of("batch", "0123456789abcdeg", "")))
                .requestRate(RateLimit.standard(), Map.of("bot", RateLimit.of(2), "batch", RateLimit.disabled()))
                .build();
        // spec 8: 60 requests per minute per named credential unless overridden
        for (int i = 0; i < 60; i++) {
            assertThat(gateway.requestRate().admit(Principal.apiKey("ci", ""))).isInstanceOf(RateDecision.Admitted.class);
        }
        assertThat(gateway.requestRate().admit(Principal.apiKey("ci", ""))).isInstanceOf(RateDecision.Limited.class);
        assertThat(gateway.requestRate().admit(Principal.apiKey("bot", ""))).isEqualTo(new RateDecision.Admitted(2, 1, 60_000));
        assertThat(gateway.requestRate().admit(Principal.apiKey("batch", ""))).isInstanceOf(RateDecision.Unlimited.class);
        assertThat(gateway.requestRate().admit(Principal.anonymous())).isInstanceOf(RateDecision.Unlimited.class);
        clock.advance(Duration.ofMinutes(1));
        assertThat(gateway.requestRate().admit(Principal.apiKey("ci", ""))).as("the window read the gateway's clock")
                .isInstanceOf(RateDecision.Admitted.class);
    }

    @Test
    void aRequestRateOverrideOfAKeyThatIsNotConfigured_isRefusedAtBuild() {
        Gateway.Builder builder = Gateway.builder().apiKeys(List.of(ApiKey.of("ci", "0123456789abcdef", "")))
                .requestRate(RateLimit.standard(), Map.of("cl", RateLimit.of(5)));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not configured: [cl]");
    }

    @Test
    void twoApiKeysOfOneToken_areRefusedAtBuild() {
        Gateway.Builder builder = Gateway.builder()
                .apiKeys(List.of(ApiKey.of("portal", "0123456789abcdef", ""), ApiKey.of("bot", "0123456789abcdef", "team-b")));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'portal' and 'bot' have the same token");
    }

    @Test
    void aBlankNameOrVersion_isRefused_withWhatToDo() {
        assertThatThrownBy(() -> Gateway.builder().name(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name must not be blank").hasMessageContaining("leave the default");
        assertThatThrownBy(() -> Gateway.builder().version("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("version must not be blank");
        assertThat(Gateway.builder().name("shop").version("1.0").build().description().info().name()).isEqualTo("shop");
    }

    @Test
    void withoutATitle_initializeShowsTheEmbeddersName_notTheLaunchersTitle() {
        Gateway gateway = Gateway.builder().name("shop-gateway").version("1.0.0").tool(new Named("order_count", "42")).build();

        JsonObject serverInfo = new McpTestClient(gateway.mcp(), Principal.anonymous()).initialize("2025-11-25")
                .getJsonObject("result").getJsonObject("serverInfo");

        assertThat(serverInfo.getString("title")).isEqualTo("shop-gateway");
        assertThat(new McpTestClient(Gateway.builder().name("shop-gateway").title("Shop").build().mcp(), Principal.anonymous())
                .initialize("2025-11-25").getJsonObject("result").getJsonObject("serverInfo").getString("title")).isEqualTo("Shop");
    }

    @Test
    void aHookTimeoutThatIsNotPositive_isRefusedWhereItIsGiven() {
        for (Duration timeout : List.of(Duration.ZERO, Duration.ofSeconds(-1))) {
            assertThatThrownBy(() -> Gateway.builder().hookTimeout(timeout)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("hookTimeout must be positive").hasMessageContaining("every hook would count as timed out");
        }
        assertThat(Gateway.builder().hookTimeout(Duration.ofMillis(1)).build()).isNotNull();
    }
}
