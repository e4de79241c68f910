package dev.omcp.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookRegistration;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.ports.budget.SavedTokenUsage;
import dev.omcp.ports.budget.TokenBucket;
import dev.omcp.ports.budget.TokenUsageStore;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.tools.Tool;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** spec 7.3, 8: the token budget on the MCP interceptor chain, through a real gateway and its dispatcher. */
class TokenBudgetInterceptorTest {
    private static final Instant T0 = Instant.parse("2025-03-01T00:00:00Z");
    private static final Principal CI = Principal.apiKey("ci", "");
    private static final Principal BOT = Principal.apiKey("bot", "");
    /** Every answer of the stand-in tools is this many characters of text: ceil(320 × 1.05 / 4) = 84 tokens. */
    private static final int ANSWER_CHARS = 320;
    private static final long ANSWER_TOKENS = 84;

    private final ManualClock clock = new ManualClock(T0);
    private final Map<String, AtomicInteger> ran = new ConcurrentHashMap<>();

    /** A tool whose every answer is {@link #ANSWER_CHARS} characters of JSON text, or an error result for {@code "fail"}. */
    private Tool tool(String name) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition(name, name, "stands in for " + name, Json.createObjectBuilder().add("type", "object").build(),
                        Optional.of(Json.createObjectBuilder().add("type", "object").build()), ToolAnnotations.readOnlyLocal());
            }

            @Override
            public ToolResult call(ToolCall call) {
                ran.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                if (call.arguments().containsKey("fail")) {
                    return ToolResult.error(name + ": " + "x".repeat(ANSWER_CHARS));
                }
                // {"data":"..."} is 11 characters around the data
                return ToolResult.structured(Json.createObjectBuilder().add("data", "x".repeat(ANSWER_CHARS - 11)).build());
            }
        };
    }

    private Gateway.Builder builder(long dailyTokens) {
        return Gateway.builder().clock(clock).tokenBudget(dailyTokens)
                .tool(tool("query_logs")).tool(tool("query_metrics")).tool(tool("get_service_health")).tool(tool("list_services"));
    }

    private int ran(String tool) {
        return ran.getOrDefault(tool, new AtomicInteger()).get();
    }

    private static JsonObject call(Gateway gateway, Principal caller, String tool, JsonObject arguments) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tool).add("arguments", arguments)).build().toString();
        McpReply reply = gateway.mcp().handle(new McpInbound(caller, Optional.empty(), Optional.empty(), body, McpTransport.IN_PROCESS),
                McpOutbound.discarding());
        return parse(((McpReply.Response) reply).json());
    }

    private static JsonObject call(Gateway gateway, Principal caller, String tool) {
        return call(gateway, caller, tool, JsonValue.EMPTY_JSON_OBJECT).getJsonObject("result");
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    /** The spec 7.3 body of a refusal, checked to be the error result every refusal of the gateway is. */
    private static JsonObject refusalBody(JsonObject result) {
        assertThat(result.getBoolean("isError", false)).as(result.toString()).isTrue();
        assertThat(result.containsKey("structuredContent")).as("error results carry no structuredContent").isFalse();
        assertThat(result.getJsonArray("content")).hasSize(1);
        JsonObject block = result.getJsonArray("content").getJsonObject(0);
        assertThat(block.getString("type")).isEqualTo("text");
        JsonObject body = parse(block.getString("text"));
        assertThat(body.keySet()).containsExactly("error", "tool", "used", "limit", "requested", "retryAfterSeconds", "freedAtRetry",
                "message");
        return body;
    }

    private static void assertData(JsonObject result) {
        assertThat(result.getBoolean("isError", false)).as(result.toString()).isFalse();
        assertThat(result.getJsonObject("structuredContent").getString("data")).hasSize(ANSWER_CHARS - 11);
    }

    @Test
    void anAnswerThatFits_isDeliveredAndCharged_theNextThatDoesNot_isReplacedByTheRefusalOfSpec73() {
        Gateway gateway = builder(100).build();

        assertData(call(gateway, CI, "query_logs"));
        assertThat(gateway.tokenUsage().snapshot().credentials())
                .containsExactly(new CredentialTokenUsage("key:ci", ANSWER_TOKENS, 100, 86_400_000L));
        clock.advance(Duration.ofSeconds(30));
        JsonObject body = refusalBody(call(gateway, CI, "query_metrics"));

        assertThat(ran("query_metrics")).as("the tool ran: the size of an answer is known only once it is made").isEqualTo(1);
        assertThat(body.getString("error")).isEqualTo("OMCP_TOKEN_BUDGET_EXCEEDED");
        assertThat(body.getString("tool")).isEqualTo("query_metrics");
        assertThat(body.getJsonNumber("used").longValue()).isEqualTo(ANSWER_TOKENS);
        assertThat(body.getJsonNumber("limit").longValue()).isEqualTo(100);
        assertThat(body.getJsonNumber("requested").longValue()).isEqualTo(ANSWER_TOKENS);
        // charged at T0: the bucket leaves 24 h after its minute ends, 86,430 s after now (T0 + 30 s)
        assertThat(body.getJsonNumber("retryAfterSeconds").longValue()).isEqualTo(86_430);
        assertThat(body.getJsonNumber("freedAtRetry").longValue()).isEqualTo(ANSWER_TOKENS);
        assertThat(body.getString("message")).contains("84 of 100 tokens", "16 are left", "a lower `limit`", "retry in 86430 s");
        assertThat(gateway.tokenUsage().snapshot().credentials()).as("the refused answer is not charged")
                .containsExactly(new CredentialTokenUsage("key:ci", ANSWER_TOKENS, 100, 86_400_000L));
    }

    @Test
    void aCredentialAtItsCap_isRefusedBeforeTheToolRuns_withNothingRequested() {
        Gateway gateway = builder(ANSWER_TOKENS).build();
        assertData(call(gateway, CI, "get_service_health"));

        JsonObject body = refusalBody(call(gateway, CI, "get_service_health"));

        assertThat(ran("get_service_health")).as("the backend is not asked a second time").isEqualTo(1);
        assertThat(body.getString("error")).isEqualTo("OMCP_TOKEN_BUDGET_EXCEEDED");
        assertThat(body.getJsonNumber("used").longValue()).isEqualTo(ANSWER_TOKENS);
        assertThat(body.getJsonNumber("requested").longValue()).isZero();
        assertThat(body.getJsonNumber("retryAfterSeconds").longValue()).isEqualTo(86_460);
        assertThat(body.getString("message")).contains("used up", "did not run", "Do not repeat the call now");
        clock.advance(Duration.ofSeconds(86_460));
        assertData(call(gateway, CI, "get_service_health"));
    }

    @Test
    void anAnswerLargerThanTheWholeCap_isRefusedAsNeverFitting_andNotCharged() {
        Gateway gateway = builder(50).build();

        JsonObject body = refusalBody(call(gateway, CI, "query_logs"));

        assertThat(body.getString("error")).isEqualTo("OMCP_TOKEN_REQUEST_EXCEEDS_BUDGET");
        assertThat(body.getJsonNumber("used").longValue()).isZero();
        assertThat(body.getJsonNumber("limit").longValue()).isEqualTo(50);
        assertThat(body.getJsonNumber("requested").longValue()).isEqualTo(ANSWER_TOKENS);
        assertThat(body.get("retryAfterSeconds")).isEqualTo(JsonValue.NULL);
        assertThat(body.get("freedAtRetry")).isEqualTo(JsonValue.NULL);
        assertThat(body.getString("message")).contains("retrying the same call will never succeed", "a lower `limit`",
                "a shorter `duration`");
        assertThat(gateway.tokenUsage().snapshot().credentials()).isEmpty();
    }

    @Test
    void otherCredentials_anonymousCallers_andToolsThatAreNotCharged_areUntouched() {
        Gateway gateway = builder(ANSWER_TOKENS).build();
        assertData(call(gateway, CI, "query_logs"));
        assertThat(refusalBody(call(gateway, CI, "query_logs")).getString("error")).isEqualTo("OMCP_TOKEN_BUDGET_EXCEEDED");

        assertData(call(gateway, BOT, "query_logs"));
        for (int i = 0; i < 5; i++) {
            assertData(call(gateway, Principal.anonymous(), "query_logs"));
            assertData(call(gateway, CI, "list_services"));
        }

        assertThat(gateway.tokenUsage().snapshot().credentials()).extracting(CredentialTokenUsage::actor)
                .containsExactly("key:bot", "key:ci");
    }

    @Test
    void errorResults_areNotCharged() {
        Gateway gateway = builder(ANSWER_TOKENS).build();

        for (int i = 0; i < 3; i++) {
            JsonObject result = call(gateway, CI, "query_logs", Jsonp.object().add("fail", true).build()).getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).startsWith("query_logs: xxx");
        }

        assertThat(gateway.tokenUsage().snapshot().credentials()).isEmpty();
    }

    @Test
    void aToolTheCredentialMayNotSee_isUnknownToIt_evenAtItsCap() {
        Gateway gateway = builder(ANSWER_TOKENS).toolVisibility((principal, tool) -> !tool.equals("query_metrics")).build();
        assertData(call(gateway, CI, "query_logs"));

        JsonObject answer = call(gateway, CI, "query_metrics", JsonValue.EMPTY_JSON_OBJECT);

        assertThat(answer.getJsonObject("error").getString("message")).startsWith("Unknown tool 'query_metrics'");
    }

    @Test
    void theManagementPlanesInProcessCalls_passTheBudgetToo() {
        Gateway gateway = builder(ANSWER_TOKENS).build();
        assertData(call(gateway, CI, "query_logs"));

        ToolOutcome outcome = gateway.invokeTool().invoke(CI, "query_logs", JsonValue.EMPTY_JSON_OBJECT);

        assertThat(outcome).isInstanceOfSatisfying(ToolOutcome.Completed.class, completed -> {
            assertThat(completed.result().isError()).isTrue();
            assertThat(parse(completed.result().firstText()).getString("error")).isEqualTo("OMCP_TOKEN_BUDGET_EXCEEDED");
        });
    }

    @Test
    void theAnswerIsChargedAsThePostHooksLeftIt() {
        HookRegistry hooks = new HookRegistry();
        // a post hook that cuts every answer to 40 characters of text: ceil(40 × 1.05 / 4) = 11 tokens
        hooks.register(new HookRegistration("cut", HookKind.TOOL_POST_INVOKE, 100, HookMode.ENFORCE,
                (context, payload) -> HookResult.replace(Jsonp.object().add("args", payload.getJsonObject("args"))
                        .add("result", Jsonp.object().add("content", Jsonp.array().add(ToolResult.textBlock("y".repeat(40))))).build())));
        Gateway gateway = builder(1000).hooks(hooks).build();

        call(gateway, CI, "query_logs");

        assertThat(gateway.tokenUsage().snapshot().credentials())
                .containsExactly(new CredentialTokenUsage("key:ci", 11, 1000, 86_400_000L));
    }

    @Test
    void uncapped_nothingIsCountedOrRefused() {
        Gateway gateway = builder(0).build();

        for (int i = 0; i < 3; i++) {
            assertData(call(gateway, CI, "query_logs"));
        }

        assertThat(gateway.tokenUsage().snapshot().active()).isFalse();
        assertThat(gateway.tokenUsage().snapshot().defaultLimit()).isEmpty();
        assertThat(gateway.tokenUsage().snapshot().windowMs()).isEqualTo(86_400_000L);
        assertThat(gateway.tokenUsage().snapshot().credentials()).isEmpty();
    }

    @Test
    void theStoresUsageIsLoadedAtBuild_andEachChargeMarksItChanged() {
        RecordingStore store = new RecordingStore(new SavedTokenUsage(Map.of("key:ci",
                List.of(new TokenBucket(T0.minus(Duration.ofHours(1)).toEpochMilli(), 90)))));
        Gateway gateway = builder(100).tokenUsageStore(store).build();

        assertThat(store.keepFrom).as("buckets that began a full window and a minute ago have left")
                .isEqualTo(T0.minus(Duration.ofDays(1)).minus(Duration.ofMinutes(1)).toEpochMilli() + 1);
        assertThat(refusalBody(call(gateway, CI, "query_logs")).getJsonNumber("used").longValue())
                .as("the tokens of the earlier run count").isEqualTo(90);
        assertThat(store.changes).as("a refusal changes nothing").hasValue(0);
        assertData(call(gateway, BOT, "query_logs"));

        assertThat(store.changes).hasValue(1);
        assertThat(store.current.get().byActor().get("key:bot")).containsExactly(new TokenBucket(T0.toEpochMilli(), ANSWER_TOKENS));
    }

    /** A store that keeps what it is given in memory and counts the changes it is told of. */
    private static final class RecordingStore implements TokenUsageStore {
        private final SavedTokenUsage kept;
        private final AtomicInteger changes = new AtomicInteger();
        private long keepFrom;
        private Supplier<SavedTokenUsage> current;

        RecordingStore(SavedTokenUsage kept) {
            this.kept = kept;
        }

        @Override
        public SavedTokenUsage load(long keepFromEpochMs) {
            keepFrom = keepFromEpochMs;
            return kept.startingFrom(keepFromEpochMs);
        }

        @Override
        public void track(Supplier<SavedTokenUsage> current) {
            this.current = current;
        }

        @Override
        public void changed() {
            changes.incrementAndGet();
        }
    }
}
