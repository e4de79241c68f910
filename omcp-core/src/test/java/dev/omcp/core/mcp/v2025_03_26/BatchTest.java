package dev.omcp.core.mcp.v2025_03_26;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * JSON-RPC batches in sessions that negotiated MCP 2025-03-26 ("Transports": a POST body may be an
 * array of requests and notifications, or of responses; "Lifecycle": initialize must not be batched).
 */
class BatchTest {
    private static final String PING_1 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    private static final String PING_2 = "{\"jsonrpc\":\"2.0\",\"id\":\"two\",\"method\":\"ping\"}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    private final Gateway gateway = Gateway.builder().tool(new EchoTool("echo")).interceptor(recording(seen)).build();
    private final McpTestClient client = new McpTestClient(gateway.mcp(), Principal.anonymous());

    private static McpInterceptor recording(List<String> seen) {
        return (call, next) -> {
            seen.add(call.method());
            return next.proceed(call);
        };
    }

    private McpTestClient initialized(McpTestClient c, String revision) {
        c.initialize(revision);
        seen.clear();
        return c;
    }

    private static JsonArray array(McpReply reply) {
        assertThat(reply).isInstanceOf(McpReply.Response.class);
        return Json.createReader(new StringReader(((McpReply.Response) reply).json())).readArray();
    }

    private static String batch(String... messages) {
        return "[" + String.join(",", messages) + "]";
    }

    @Test
    void requestsInABatch_areAnsweredWithAnArrayOfTheirResponses_inOrder() {
        initialized(client, "2025-03-26");
        JsonArray answers = array(client.raw(batch(PING_1, PING_2,
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"service\":\"api\"}}}")));
        assertThat(answers).hasSize(3);
        assertThat(answers.getJsonObject(0).getInt("id")).isEqualTo(1);
        assertThat(answers.getJsonObject(1).getString("id")).isEqualTo("two");
        assertThat(answers.getJsonObject(0).getJsonObject("result")).isEmpty();
        assertThat(answers.getJsonObject(2).getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"))
                .contains("api");
    }

    @Test
    void everyElement_passesTheInterceptorChain_oneAfterAnotherInTheOrderSent() {
        initialized(client, "2025-03-26");
        client.raw(batch(INITIALIZED, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"error\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"));
        assertThat(seen).containsExactly("notifications/initialized", "logging/setLevel", "tools/list");
    }

    @Test
    void notificationsAndClientResponses_getNoEntry() {
        initialized(client, "2025-03-26");
        JsonArray answers = array(client.raw(batch(INITIALIZED, PING_1,
                "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-99\",\"result\":{}}")));
        assertThat(answers).hasSize(1);
        assertThat(answers.getJsonObject(0).getInt("id")).isEqualTo(1);
    }

    @Test
    void aBatchOfOnlyNotificationsAndResponses_isAccepted_withoutAnswer() {
        initialized(client, "2025-03-26");
        assertThat(client.raw(batch(INITIALIZED, "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-99\",\"error\":{\"code\":-1,\"message\":\"no\"}}")))
                .isInstanceOf(McpReply.Accepted.class);
        assertThat(seen).containsExactly("notifications/initialized");
    }

    @Test
    void anEmptyBatch_isOneInvalidRequest() {
        initialized(client, "2025-03-26");
        assertThat(client.raw("[]")).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().isNull("id")).isTrue();
        });
    }

    @Test
    void invalidElements_getTheirOwnErrors_andTheValidOnesStillRun() {
        initialized(client, "2025-03-26");
        JsonArray answers = array(client.raw(batch("1", "{\"jsonrpc\":\"2.0\",\"id\":5}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":[1]}", PING_1)));
        assertThat(answers).hasSize(4);
        assertThat(answers.getJsonObject(0).isNull("id")).isTrue();
        assertThat(answers.getJsonObject(0).getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
        assertThat(answers.getJsonObject(1).getInt("id")).isEqualTo(5);
        assertThat(answers.getJsonObject(1).getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
        assertThat(answers.getJsonObject(2).getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(answers.getJsonObject(3).getJsonObject("result")).isEmpty();
        assertThat(seen).containsExactly("ping");
    }

    @Test
    void anElementWithAFractionalId_getsItsOwnInvalidRequestWithIdNull_andDoesNotRun() {
        // MCP: a request id is a string or an integer
        initialized(client, "2025-03-26");
        JsonArray answers = array(client.raw(batch("{\"jsonrpc\":\"2.0\",\"id\":2.5,\"method\":\"tools/list\"}", PING_1)));
        assertThat(answers).hasSize(2);
        assertThat(answers.getJsonObject(0).isNull("id")).isTrue();
        assertThat(answers.getJsonObject(0).getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
        assertThat(answers.getJsonObject(0).getJsonObject("error").getString("message")).contains("string or an integer");
        assertThat(answers.getJsonObject(1).getInt("id")).isEqualTo(1);
        assertThat(seen).containsExactly("ping");
    }

    @Test
    void errorsOfSomeElements_leaveTheBatchASuccess_onlyAllErrorsMakeItAnError() {
        initialized(client, "2025-03-26");
        assertThat(client.raw(batch(PING_1, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}")))
                .isInstanceOfSatisfying(McpReply.Response.class, r -> assertThat(r.error()).isFalse());
        assertThat(client.raw(batch("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}")))
                .isInstanceOfSatisfying(McpReply.Response.class, r -> assertThat(r.error()).isTrue());
    }

    @Test
    void initializeInABatch_isRefused_andNothingRuns() {
        initialized(client, "2025-03-26");
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\"}}";
        assertThat(client.raw(batch(PING_1, initialize))).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("initialize must not be part of a JSON-RPC batch");
        });
        assertThat(seen).isEmpty();
    }

    @Test
    void aBatchOverTheBound_isRefusedWhole_andNothingRuns() {
        initialized(client, "2025-03-26");
        String over = IntStream.rangeClosed(1, 33).mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(client.raw(over)).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.BATCH_NOT_SUPPORTED);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("at most 32 messages");
        });
        assertThat(seen).isEmpty();
        String atTheBound = IntStream.rangeClosed(1, 32).mapToObj(i -> "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"ping\"}")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(array(client.raw(atTheBound))).hasSize(32);
    }

    @Test
    void aBatchWithAnUnknownSession_isNotFound_andNothingRuns() {
        McpReply reply = client.send(Optional.of("no-such-session"), batch(PING_1, PING_2));
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.SESSION_NOT_FOUND);
        });
        assertThat(seen).isEmpty();
    }

    @Test
    void aLaterProtocolVersionHeader_inA2025_03_26Session_refusesTheBatch() {
        initialized(client, "2025-03-26");
        McpReply reply = gateway.mcp().handle(new McpInbound(Principal.anonymous(), Optional.of(client.sessionId()),
                Optional.of("2025-06-18"), batch(PING_1), McpTransport.STREAMABLE_HTTP), McpOutbound.discarding());
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.BATCH_NOT_SUPPORTED);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("not supported in MCP 2025-06-18");
        });
        assertThat(seen).isEmpty();
    }

    @Test
    void aRequestAnInterceptorRefuses_isAnErrorEntry_andTheOthersStillRun() {
        JsonObject refusal = Json.createObjectBuilder().add("code", "OMCP_FORBIDDEN").add("error", "not for you").build();
        Gateway refusing = Gateway.builder().interceptor((call, next) -> call.method().equals("tools/list")
                ? new McpResult.Refused(Refusal.FORBIDDEN, refusal) : next.proceed(call)).build();
        McpTestClient c = new McpTestClient(refusing.mcp(), Principal.anonymous());
        c.initialize("2025-03-26");
        JsonArray answers = array(c.raw(batch("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}", PING_1)));
        JsonObject error = answers.getJsonObject(0).getJsonObject("error");
        assertThat(answers.getJsonObject(0).getInt("id")).isEqualTo(4);
        assertThat(error.getInt("code")).isEqualTo(JsonRpc.REQUEST_REFUSED);
        assertThat(error.getString("message")).isEqualTo("Request refused (forbidden): not for you");
        assertThat(error.getJsonObject("data")).isEqualTo(refusal);
        assertThat(answers.getJsonObject(1).getJsonObject("result")).isEmpty();
    }

    @Test
    void aRefusedNotification_inABatchWithoutRequests_isTheBatchsAnswer() {
        JsonObject refusal = Json.createObjectBuilder().add("code", "OMCP_RATE_LIMITED").build();
        Gateway refusing = Gateway.builder().interceptor((call, next) -> call.isNotification()
                ? new McpResult.Refused(Refusal.RATE_LIMITED, refusal) : next.proceed(call)).build();
        McpTestClient c = new McpTestClient(refusing.mcp(), Principal.anonymous());
        c.initialize("2025-03-26");
        assertThat(c.raw(batch(INITIALIZED))).isInstanceOfSatisfying(McpReply.Refused.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.RATE_LIMITED));
        // next to a request, the refused notification stays unanswered, as JSON-RPC wants
        assertThat(array(c.raw(batch(INITIALIZED, PING_1)))).hasSize(1);
    }

    @Test
    void messagesAnElementSendsBeforeItsAnswer_goToTheBodysOutbound() {
        Gateway logging = Gateway.builder().interceptor((call, next) -> {
            call.outbound().send(JsonRpc.notification("notifications/message",
                    Json.createObjectBuilder().add("level", "info").add("data", call.method()).build()));
            return next.proceed(call);
        }).build();
        McpTestClient c = new McpTestClient(logging.mcp(), Principal.anonymous());
        c.initialize("2025-03-26");
        c.notifications.clear();
        assertThat(array(c.raw(batch(PING_1, PING_2)))).hasSize(2);
        assertThat(c.notifications).extracting(n -> n.getJsonObject("params").getString("data")).containsExactly("ping", "ping");
    }

    @Test
    void batchesOfLaterRevisions_andWithoutSession_areStillRefused() {
        for (String revision : List.of("2025-06-18", "2025-11-25")) {
            McpTestClient c = initialized(new McpTestClient(gateway.mcp(), Principal.anonymous()), revision);
            assertThat(c.raw(batch(PING_1))).as(revision).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.BATCH_NOT_SUPPORTED);
                assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
                assertThat(r.body().getJsonObject("error").getString("message")).contains("Batch requests are not supported");
            });
        }
        assertThat(client.send(Optional.empty(), batch(PING_1))).isInstanceOfSatisfying(McpReply.Refused.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.BATCH_NOT_SUPPORTED));
        assertThat(seen).isEmpty();
    }

    @Test
    void theBatchRefusalOfASession_isWhatEveryBatchInItGets_soATransportRefusingABatchItselfAnswersTheSame() {
        for (String revision : List.of("2025-06-18", "2025-11-25")) {
            McpTestClient c = initialized(new McpTestClient(gateway.mcp(), Principal.anonymous()), revision);
            McpReply answered = c.raw(batch(PING_1));
            assertThat(gateway.mcp().batchRefusal(Optional.of(c.sessionId()), Principal.anonymous())).as(revision)
                    .contains((McpReply.Refused) answered);
        }
        assertThat(gateway.mcp().batchRefusal(Optional.empty(), Principal.anonymous())).as("no session")
                .contains((McpReply.Refused) client.send(Optional.empty(), batch(PING_1)));
        assertThat(gateway.mcp().batchRefusal(Optional.of("no-such-session"), Principal.anonymous())).as("an unknown session")
                .hasValueSatisfying(r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND));
        initialized(client, "2025-03-26");
        assertThat(gateway.mcp().batchRefusal(Optional.of(client.sessionId()), Principal.anonymous())).as("2025-03-26 takes batches")
                .isEmpty();
        assertThat(gateway.mcp().batchRefusal(Optional.of(client.sessionId()), Principal.apiKey("someone-else", "")))
                .as("another credential's session is unknown to it")
                .hasValueSatisfying(r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND));
        assertThat(seen).isEmpty();
    }
}
