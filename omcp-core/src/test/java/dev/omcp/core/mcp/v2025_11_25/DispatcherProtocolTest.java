package dev.omcp.core.mcp.v2025_11_25;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.mcp.JsonRpc;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.core.testing.EchoTool;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** JSON-RPC framing and lifecycle of MCP 2025-11-25 as the transport-agnostic dispatcher applies them. */
class DispatcherProtocolTest {
    private final Gateway gateway = Gateway.builder().version("1.2.3").instructions("use list_services first")
            .tool(new EchoTool("echo")).build();
    private final McpTestClient client = new McpTestClient(gateway.mcp(), Principal.anonymous());

    @Test
    void initialize_answersTheRequestedRevisionWithCapabilitiesAndServerInfo() {
        JsonObject response = client.initialize("2025-11-25");
        JsonObject result = response.getJsonObject("result");
        assertThat(result.getString("protocolVersion")).isEqualTo("2025-11-25");
        assertThat(result.getJsonObject("serverInfo").getString("name")).isEqualTo("omcp");
        assertThat(result.getJsonObject("serverInfo").getString("version")).isEqualTo("1.2.3");
        assertThat(result.getJsonObject("capabilities").keySet()).contains("tools", "resources", "prompts", "logging", "completions");
        // listChanged promises notifications: the tool list sends them (plugins come and go), the resources and
        // prompts, fixed when the gateway is built, never would
        assertThat(result.getJsonObject("capabilities").getJsonObject("tools").getBoolean("listChanged")).isTrue();
        assertThat(result.getJsonObject("capabilities").getJsonObject("resources").getBoolean("listChanged")).isFalse();
        assertThat(result.getJsonObject("capabilities").getJsonObject("prompts").getBoolean("listChanged")).isFalse();
        assertThat(result.getString("instructions")).isEqualTo("use list_services first");
        assertThat(client.sessionId()).hasSizeGreaterThanOrEqualTo(43).matches("[A-Za-z0-9_-]+");
    }

    @Test
    void initialize_withAnOlderSupportedRevision_answersThatRevision() {
        assertThat(client.initialize("2025-03-26").getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-03-26");
    }

    @Test
    void initialize_withAnUnknownRevision_answersTheLatest() {
        assertThat(client.initialize("1999-01-01").getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
    }

    @Test
    void sessionIds_areUniquePerInitialize() {
        client.initialize("2025-11-25");
        String first = client.sessionId();
        client.initialize("2025-11-25");
        assertThat(client.sessionId()).isNotEqualTo(first);
    }

    @Test
    void ping_answersAnEmptyObjectWithTheSameId() {
        client.initialize("2025-11-25");
        McpReply.Response reply = (McpReply.Response) client.raw("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}");
        assertThat(reply.json()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result\":{}}");
    }

    @Test
    void requestWithoutSession_isRefusedAndNotExecuted() {
        AtomicInteger reached = new AtomicInteger();
        Gateway counting = Gateway.builder().interceptor(countingInterceptor(reached)).build();
        McpReply reply = new McpTestClient(counting.mcp(), Principal.anonymous())
                .send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.SESSION_REQUIRED);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("MCP-Session-Id");
        });
        assertThat(reached).hasValue(0);
    }

    @Test
    void aPingBeforeInitializeOnAWebSocket_isAnsweredThroughTheChain_asTheMcpLifecycleAllows() {
        // MCP lifecycle: the client SHOULD NOT send requests other than pings before initialize is answered
        AtomicInteger reached = new AtomicInteger();
        Gateway counting = Gateway.builder().interceptor(countingInterceptor(reached)).build();
        McpReply reply = counting.mcp().handle(new McpInbound(Principal.anonymous(), Optional.empty(), Optional.empty(),
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", McpTransport.WEBSOCKET), McpOutbound.discarding());
        assertThat(reply).isInstanceOfSatisfying(McpReply.Response.class, r -> {
            assertThat(r.error()).isFalse();
            assertThat(r.newSessionId()).as("a ping opens no session").isEmpty();
            assertThat(Jsonp.reader(r.json()).readObject().getJsonObject("result")).isEmpty();
        });
        assertThat(reached).as("policies and audit see it as any request").hasValue(1);
    }

    @Test
    void aPingWithoutSessionOverStreamableHttp_isStillRefused_asTheTransportAsksOfAServerThatRequiresSessions() {
        // MCP Streamable HTTP: a server that requires a session answers 400 to a request without
        // Mcp-Session-Id other than initialize; a WebSocket has no such header, the socket is the session
        McpReply reply = client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_REQUIRED));
    }

    @Test
    void aMessageBeforeInitializeOnAWebSocket_isToldToInitializeTheSocket_notToSendAHeaderItCannotSend() {
        // a WebSocket has no Mcp-Session-Id header: the connection is the session, opened by initialize on it
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}")) {
            McpReply reply = gateway.mcp().handle(
                    new McpInbound(Principal.anonymous(), Optional.empty(), Optional.empty(), body, McpTransport.WEBSOCKET),
                    McpOutbound.discarding());
            assertThat(reply).as(body).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.SESSION_REQUIRED);
                assertThat(r.body().getJsonObject("error").getString("message"))
                        .doesNotContain("header")
                        .contains("this WebSocket has no MCP session yet").contains("send initialize on it first");
            });
        }
        // over Streamable HTTP the header is what is missing, and a client response is told what to do too
        McpReply response = client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}");
        assertThat(response).isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(
                r.body().getJsonObject("error").getString("message")).contains("MCP-Session-Id header is required").contains("initialize"));
    }

    @Test
    void unknownSession_isRefusedAsNotFound() {
        McpReply reply = client.send(Optional.of("no-such-session"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.SESSION_NOT_FOUND);
        });
    }

    @Test
    void sessionOfAnotherCredential_isNotFound() {
        client.initialize("2025-11-25");
        McpTestClient intruder = new McpTestClient(gateway.mcp(), Principal.apiKey("other", ""));
        McpReply reply = intruder.send(Optional.of(client.sessionId()), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND));
    }

    @Test
    void endedSession_isNotFoundAfterwards() {
        client.initialize("2025-11-25");
        assertThat(gateway.mcp().endSession(client.sessionId(), Principal.anonymous()))
                .isEqualTo(dev.omcp.ports.mcp.McpEndpoint.SessionStatus.ACTIVE);
        assertThat(client.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_NOT_FOUND));
    }

    @Test
    void batch_isRefusedAndNothingInItRuns() {
        AtomicInteger reached = new AtomicInteger();
        Gateway counting = Gateway.builder().interceptor(countingInterceptor(reached)).build();
        McpTestClient c = new McpTestClient(counting.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        reached.set(0);
        McpReply reply = c.raw("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.BATCH_NOT_SUPPORTED);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
        });
        assertThat(reached).hasValue(0);
    }

    @Test
    void invalidJson_isAParseError() {
        assertThat(client.send(Optional.empty(), "{\"jsonrpc\":")).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.PARSE_ERROR);
        });
    }

    @Test
    void contentAfterTheFirstValue_isAParseError_andNothingRuns() {
        AtomicInteger reached = new AtomicInteger();
        Gateway counting = Gateway.builder().interceptor(countingInterceptor(reached)).build();
        McpTestClient c = new McpTestClient(counting.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        reached.set(0);
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} trailing")) {
            assertThat(c.raw(body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
                assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.PARSE_ERROR);
            });
        }
        assertThat(reached).hasValue(0);
        // whitespace after the message is still fine
        assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n  ")).isInstanceOf(McpReply.Response.class);
    }

    @Test
    void bodiesBeyondTheParserLimits_areAParseError_notAnException() {
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + "[".repeat(200) + "]".repeat(200) + "}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":1" + "0".repeat(5000) + "}}")) {
            assertThat(client.send(Optional.empty(), body)).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
                assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.PARSE_ERROR);
            });
        }
    }

    @Test
    void aRepeatedKey_isAParseErrorThatSaysSo_notOneAboutTheParsersLimits() {
        assertThat(client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/list\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                    assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
                    assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.PARSE_ERROR);
                    assertThat(r.body().getJsonObject("error").getString("message")).isEqualTo("Parse error: an object of the body "
                            + "repeats a key; each key may appear once in an object (Duplicate key 'method' is not allowed)");
                });
    }

    @Test
    void initialize_withCapabilitiesOrClientInfoThatAreNotObjects_orAProtocolVersionThatIsNoString_isInvalidParams_andOpensNoSession() {
        for (String params : List.of(
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":\"x\",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}",
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":\"t\"}",
                // a revision is named by a string: a number or null names none, and is not read as "the latest"
                "{\"protocolVersion\":5,\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}",
                "{\"protocolVersion\":null,\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}")) {
            McpReply reply = client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":" + params + "}");
            assertThat(reply).as(params).isInstanceOfSatisfying(McpReply.Response.class, r -> {
                assertThat(r.newSessionId()).isEmpty();
                assertThat(McpTestClient.parse(r.json()).getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS);
            });
        }
    }

    @Test
    void aHandlerThatThrows_stillAnswersTheRequest_withAnInternalError() {
        Gateway throwing = Gateway.builder().interceptor((call, next) -> {
            if (call.method().equals("tools/list")) {
                throw new IllegalStateException("boom");
            }
            return next.proceed(call);
        }).build();
        McpTestClient c = new McpTestClient(throwing.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        JsonObject response = c.request("tools/list", "{}");
        assertThat(response.getInt("id")).isEqualTo(7);
        assertThat(response.getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INTERNAL_ERROR);
        assertThat(response.getJsonObject("error").getString("message")).contains("error id").doesNotContain("boom");
    }

    @Test
    void completion_withRefOrArgumentThatAreNotObjects_isInvalidParams() {
        client.initialize("2025-11-25");
        for (String params : List.of(
                "{\"ref\":\"x\",\"argument\":{\"name\":\"service\",\"value\":\"\"}}",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},\"argument\":\"x\"}")) {
            assertThat(client.request("completion/complete", params).getJsonObject("error").getInt("code"))
                    .as(params).isEqualTo(JsonRpc.INVALID_PARAMS);
        }
    }

    @Test
    void completion_withANameOrValueThatIsNotAString_isInvalidParamsThatSaysWhich_notAnEmptyCompletion() {
        // MCP CompleteRequest: argument.name and argument.value are strings, and so is the prompt's
        // ref.name; a number there was read as "" and answered as if nothing matched
        Gateway.Builder builder = Gateway.builder();
        dev.omcp.core.guidance.IncidentPrompts.all().forEach(builder::prompt);
        McpTestClient c = new McpTestClient(builder.build().mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        String prompt = "{\"type\":\"ref/prompt\",\"name\":\"write-postmortem\"}";
        for (String[] params : List.of(
                new String[] {"{\"ref\":" + prompt + ",\"argument\":{\"name\":5,\"value\":\"1\"}}", "params.argument.name"},
                new String[] {"{\"ref\":" + prompt + ",\"argument\":{\"name\":\"duration\",\"value\":[1]}}", "params.argument.value"},
                new String[] {"{\"ref\":{\"type\":\"ref/prompt\",\"name\":5},\"argument\":{\"name\":\"duration\",\"value\":\"1\"}}",
                        "params.ref.name"},
                new String[] {"{\"ref\":{\"type\":\"ref/resource\",\"uri\":{}},\"argument\":{\"name\":\"v\",\"value\":\"1\"}}",
                        "params.ref.uri"})) {
            JsonObject error = c.request("completion/complete", params[0]).getJsonObject("error");
            assertThat(error).as(params[0]).isNotNull();
            assertThat(error.getInt("code")).as(params[0]).isEqualTo(JsonRpc.INVALID_PARAMS);
            assertThat(error.getString("message")).as(params[0]).contains(params[1]);
        }
        // an unknown prompt's name is quoted bounded and on one line
        String unknown = c.request("completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"a\\n" + "b".repeat(10_000)
                + "\"},\"argument\":{\"name\":\"x\",\"value\":\"\"}}").getJsonObject("error").getString("message");
        assertThat(unknown).doesNotContain("\n").hasSizeLessThan(300);
        // valid requests, a missing value included (read as nothing typed yet), still complete
        JsonObject values = c.request("completion/complete", "{\"ref\":" + prompt + ",\"argument\":{\"name\":\"duration\"}}")
                .getJsonObject("result").getJsonObject("completion");
        assertThat(values.getJsonArray("values")).isNotEmpty();
        assertThat(c.request("completion/complete", "{\"ref\":" + prompt + ",\"argument\":{\"name\":\"duration\",\"value\":\"1\"}}")
                .getJsonObject("result").getJsonObject("completion").getJsonArray("values")).isNotEmpty();
    }

    @Test
    void metaThatIsNotAnObject_carriesNoProgressToken() {
        McpCall call = new McpCall(Principal.anonymous(), Optional.empty(), ProtocolRevision.LATEST, "tools/call",
                jakarta.json.Json.createValue(1), McpTestClient.parse("{\"_meta\":\"x\"}"), McpTransport.STREAMABLE_HTTP,
                McpOutbound.discarding());
        assertThat(call.progressToken()).isEmpty();
    }

    @Test
    void duplicateKeys_areRefused() {
        assertThat(client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"initialize\",\"params\":{}}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED));
    }

    @Test
    void wrongJsonRpcVersionOrIdType_isInvalidRequest() {
        for (String body : List.of(
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}",
                "\"just a string\"")) {
            assertThat(client.send(Optional.empty(), body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class,
                    r -> assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED));
        }
    }

    @Test
    void invalidRequests_echoTheirIdWheneverItCanBeRead() {
        client.initialize("2025-11-25");
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":3}",
                "{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}",
                "{\"id\":3,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":5}")) {
            assertThat(client.raw(body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
                assertThat(r.body().getInt("id")).isEqualTo(3);
                assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            });
        }
        assertThat(client.raw("{\"jsonrpc\":\"1.0\",\"id\":\"abc\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.body().getString("id")).isEqualTo("abc"));
        // an id that is neither a string nor a number cannot be read: null, as JSON-RPC says
        assertThat(client.raw("{\"jsonrpc\":\"1.0\",\"id\":[3],\"method\":\"ping\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.body().isNull("id")).isTrue());
    }

    @Test
    void aFractionalId_isAnInvalidRequestWithIdNull_thatSaysIdsAreStringsOrIntegers_andDoesNotRun() {
        // MCP 2025-11-25 "Messages": requests MUST include a string or integer id
        AtomicInteger reached = new AtomicInteger();
        Gateway counting = Gateway.builder().interceptor(countingInterceptor(reached)).build();
        McpTestClient c = new McpTestClient(counting.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        reached.set(0);
        for (String id : List.of("1.5", "-0.25", "1e-3", "7.000000000000000000001")) {
            for (String body : List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}")) {
                assertThat(c.raw(body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                    assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
                    assertThat(r.body().isNull("id")).isTrue();
                    assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
                    assertThat(r.body().getJsonObject("error").getString("message"))
                            .contains("\"id\" must be a string or an integer");
                });
            }
        }
        assertThat(reached).as("nothing ran").hasValue(0);
        // the id's type is judged before the rest, so an invalid request with such an id has no readable one either
        assertThat(c.raw("{\"jsonrpc\":\"1.0\",\"id\":1.5,\"method\":\"ping\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.body().isNull("id")).isTrue());
    }

    @Test
    void integerIds_andStringIds_andIntegersWrittenWithAFractionOrExponent_areAnsweredWithTheirId() {
        // A JavaScript client (the official SDK included) reads 1.0 as the integer 1, so tolerating it
        // serves what those servers serve; the answer echoes the id's value, as JSON-RPC asks.
        client.initialize("2025-11-25");
        for (String id : List.of("1", "-3", "0", "\"1\"", "\"1.5\"", "1.0", "2.50e1", "1E2", "123456789012345678901234567890")) {
            McpReply reply = client.raw("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            jakarta.json.JsonValue sent = McpTestClient.parse("{\"id\":" + id + "}").get("id");
            assertThat(reply).as(id).isInstanceOfSatisfying(McpReply.Response.class, r -> {
                JsonObject answer = McpTestClient.parse(r.json());
                assertThat(answer.getJsonObject("result")).isEmpty();
                if (sent instanceof jakarta.json.JsonNumber number) {
                    assertThat(answer.getJsonNumber("id").bigDecimalValue()).isEqualByComparingTo(number.bigDecimalValue());
                } else {
                    assertThat(answer.get("id")).isEqualTo(sent);
                }
            });
        }
    }

    @Test
    void aClientErrorResponseWithANullOrNoId_isAccepted_asJsonRpcAndMcpAllowWhenTheRequestsIdWasUnreadable() {
        client.initialize("2025-11-25");
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}")) {
            assertThat(client.raw(body)).as(body).isInstanceOf(McpReply.Accepted.class);
            // still a message of a session: without one it is refused as any response is
            assertThat(client.send(Optional.empty(), body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class,
                    r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_REQUIRED));
        }
        // a result always answers a request the client could read, so it names it
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"result\":{}}")) {
            assertThat(client.raw(body)).as(body).isInstanceOfSatisfying(McpReply.Refused.class,
                    r -> assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED));
        }
    }

    @Test
    void aClientResponseWithBothResultAndError_isRefused() {
        client.initialize("2025-11-25");
        McpReply reply = client.raw("{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{},\"error\":{\"code\":-1,\"message\":\"x\"}}");
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().getString("id")).isEqualTo("omcp-1");
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("never both");
        });
        assertThat(client.raw("{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}")).isInstanceOf(McpReply.Accepted.class);
    }

    @Test
    void aRequestReusingTheIdOfOneInFlight_isAnsweredToo_andACancellationOfThatIdEndsBoth() throws Exception {
        // MCP asks clients not to reuse ids, but an HTTP retry of a request still running does: both
        // get answered, and a cancellation of the id reaches both (not just the last one, as it did)
        CountDownLatch entered = new CountDownLatch(2);
        Gateway blocking = blockingToolsList(entered::countDown);
        McpTestClient c = new McpTestClient(blocking.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        String request = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}";
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<McpReply> first = executor.submit(() -> c.raw(request));
            Future<McpReply> retry = executor.submit(() -> c.raw(request));
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("both reached the chain").isTrue();

            // a cancellation of another id, or of the same id as a string, ends neither
            c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":6}}");
            c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"5\"}}");
            assertThat(first.isDone() || retry.isDone()).isFalse();

            c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}");
            for (Future<McpReply> answer : List.of(first, retry)) {
                McpReply.Response cancelled = (McpReply.Response) answer.get(10, TimeUnit.SECONDS);
                assertThat(McpTestClient.parse(cancelled.json()).getInt("id")).isEqualTo(5);
                assertThat(McpTestClient.parse(cancelled.json()).getJsonObject("error").getString("message")).isEqualTo("cancelled");
            }
        } finally {
            // a request the cancellation missed would otherwise block forever
            executor.shutdownNow();
        }
    }

    @Test
    void aCancellationNamesTheRequestByTheValueOfItsId_howeverTheIntegerIsWritten() throws Exception {
        // JSON-RPC ids are values: 1e2, 100 and 100.0 are one integer (the gateway answers a request
        // sent with id 1e2 as id 100), so a cancellation must reach the request whichever the client wrote
        Semaphore entered = new Semaphore(0);
        Gateway blocking = blockingToolsList(entered::release);
        McpTestClient c = new McpTestClient(blocking.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (String[] ids : new String[][] {{"100", "1e2"}, {"1E+2", "100"}, {"100.0", "1.00e2"}, {"0", "-0.0"}}) {
                String request = "{\"jsonrpc\":\"2.0\",\"id\":" + ids[0] + ",\"method\":\"tools/list\"}";
                Future<McpReply> running = executor.submit(() -> c.raw(request));
                assertThat(entered.tryAcquire(10, TimeUnit.SECONDS)).as("request " + ids[0] + " reached the chain").isTrue();

                c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + ids[1] + "}}");

                McpReply.Response answer = (McpReply.Response) running.get(10, TimeUnit.SECONDS);
                assertThat(McpTestClient.parse(answer.json()).getJsonObject("error").getString("message"))
                        .as("request id " + ids[0] + " cancelled as " + ids[1]).isEqualTo("cancelled");
            }
        } finally {
            // a request the cancellation missed would otherwise block forever
            executor.shutdownNow();
        }
    }

    @Test
    void sameIdInAnotherSession_isNoConflict() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Gateway blocking = Gateway.builder().interceptor((call, next) -> {
            if (call.method().equals("tools/list") && entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return next.proceed(call);
        }).build();
        McpTestClient one = new McpTestClient(blocking.mcp(), Principal.anonymous());
        McpTestClient other = new McpTestClient(blocking.mcp(), Principal.anonymous());
        one.initialize("2025-11-25");
        other.initialize("2025-11-25");
        String request = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}";
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<McpReply> first = executor.submit(() -> one.raw(request));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(other.raw(request)).isInstanceOf(McpReply.Response.class);
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(McpReply.Response.class);
        } finally {
            release.countDown();
            executor.shutdownNow();
        }
    }

    @Test
    void aSessionMayHave32RequestsInFlight_theNextIsRefusedWithTheBound_andEveryEndGivesItsPlaceBack() throws Exception {
        // Each request in flight holds a thread and backend queries; without a bound one session
        // could run any number at once. Ends of every kind give the place back: an answer, a
        // handler that throws, a cancellation.
        int bound = dev.omcp.core.mcp.session.RequestsInFlight.PER_SESSION;
        assertThat(bound).isEqualTo(32);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        Gateway blocking = Gateway.builder().interceptor((call, next) -> {
            switch (call.method()) {
                case "tools/list" -> {
                    entered.incrementAndGet();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        return McpResult.Failure.of(JsonRpc.REQUEST_REFUSED, "cancelled");
                    }
                }
                case "prompts/list" -> throw new IllegalStateException("a bug");
                default -> { }
            }
            return next.proceed(call);
        }).build();
        McpTestClient c = new McpTestClient(blocking.mcp(), Principal.anonymous());
        McpTestClient other = new McpTestClient(blocking.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        other.initialize("2025-11-25");
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<McpReply>> running = new ArrayList<>();
            for (int i = 0; i < bound; i++) {
                String request = "{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"tools/list\"}";
                running.add(executor.submit(() -> c.raw(request)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (entered.get() < bound) {
                assertThat(System.nanoTime()).as("all " + bound + " requests are running").isLessThan(deadline);
                Thread.sleep(5);
            }

            McpReply refused = c.raw("{\"jsonrpc\":\"2.0\",\"id\":\"one-too-many\",\"method\":\"ping\"}");
            assertThat(refused).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
                assertThat(r.refusal()).isEqualTo(Refusal.TOO_MANY_IN_FLIGHT);
                assertThat(r.method()).isEqualTo("ping");
                assertThat(r.body().getString("id")).isEqualTo("one-too-many");
                assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.REQUEST_REFUSED);
                assertThat(r.body().getJsonObject("error").getString("message"))
                        .contains("32 requests in flight").contains("at most 32").contains("wait for an answer");
            });
            // notifications are no requests: they still get through (a cancellation above all)
            assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).isInstanceOf(McpReply.Accepted.class);
            // the bound is per session: another session of the same credential is not held up
            assertThat(other.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).isInstanceOf(McpReply.Response.class);

            // a cancelled request gives its place back
            c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":100}}");
            assertThat(running.getFirst().get(10, TimeUnit.SECONDS)).isInstanceOf(McpReply.Response.class);
            assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")).isInstanceOf(McpReply.Response.class);
            // so does one whose handler throws (answered with an internal error)
            for (int i = 0; i < bound + 1; i++) {
                assertThat(c.request("prompts/list", "{}").getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INTERNAL_ERROR);
            }

            release.countDown();
            for (Future<McpReply> answer : running) {
                assertThat(answer.get(10, TimeUnit.SECONDS)).isInstanceOf(McpReply.Response.class);
            }
            // answered requests gave their places back: a full round fits again
            for (int i = 0; i < bound + 1; i++) {
                assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}")).isInstanceOf(McpReply.Response.class);
            }
        } finally {
            release.countDown();
            executor.shutdownNow();
        }
    }

    @Test
    void unsupportedProtocolVersionHeader_isRefused() {
        McpReply reply = gateway.mcp().handle(new McpInbound(Principal.anonymous(), Optional.empty(), Optional.of("2024-01-01"),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", McpTransport.STREAMABLE_HTTP), McpOutbound.discarding());
        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.UNSUPPORTED_PROTOCOL_VERSION);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("2024-01-01").contains("2025-11-25");
        });
    }

    @Test
    void notification_isAcceptedWithoutAnswer() {
        client.initialize("2025-11-25");
        assertThat(client.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                .isInstanceOf(McpReply.Accepted.class);
        assertThat(client.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}"))
                .isInstanceOf(McpReply.Accepted.class);
    }

    @Test
    void aRequestMethodSentWithoutAnId_isRefused_andDoesNotRun() {
        // A notification gets no answer, so a tools/call sent as one would run (rate limit, budget,
        // backend queries) for nobody to read its result; MCP lets the server refuse it with 400.
        AtomicInteger runs = new AtomicInteger();
        McpTestClient c = new McpTestClient(Gateway.builder().tool(countingTool("count_me", runs)).build().mcp(), Principal.anonymous());
        c.initialize("2025-11-25");

        McpReply reply = c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"count_me\",\"arguments\":{}}}");

        assertThat(reply).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().get("id")).isEqualTo(jakarta.json.JsonValue.NULL);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("tools/call", "\"id\"", "did not run");
        });
        assertThat(runs).as("the tool did not run").hasValue(0);
        assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}")).isInstanceOf(McpReply.Refused.class);
        // the session is untouched: the same call as a request runs and is answered
        assertThat(c.request("tools/call", "{\"name\":\"count_me\",\"arguments\":{}}").getJsonObject("result")).isNotNull();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aNotificationMethodSentWithAnId_isAnsweredWithAnError_notLeftWithoutAnswer() {
        // JSON-RPC: a message with an id is a request and gets a response; its handler answers
        // nothing, so without this check the request got 202 and the client waited for ever
        client.initialize("2025-11-25");
        for (String method : List.of("notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed")) {
            McpReply reply = client.raw("{\"jsonrpc\":\"2.0\",\"id\":\"n1\",\"method\":\"" + method + "\",\"params\":{\"requestId\":1}}");
            assertThat(reply).as(method).isInstanceOfSatisfying(McpReply.Response.class, r -> {
                JsonObject answer = McpTestClient.parse(r.json());
                assertThat(answer.getString("id")).isEqualTo("n1");
                assertThat(answer.getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
                assertThat(answer.getJsonObject("error").getString("message")).contains(method, "notification", "without \"id\"");
            });
        }
        // an unknown method is still plainly not found
        assertThat(client.request("notifications/nonexistent", "{}").getJsonObject("error").getString("message"))
                .isEqualTo("Method not found: notifications/nonexistent");
    }

    @Test
    void initializeRepeatedInALiveSession_isRefused_andTheSessionGoesOn() {
        // MCP lifecycle: initialize is the first interaction of a session, once; a client that wants a
        // new session sends initialize without the header. Opening one more session here would leave
        // the old one to count against the credential's limit until it expires.
        client.initialize("2025-11-25");
        String live = client.sessionId();
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

        assertThat(client.send(Optional.of(live), initialize)).isInstanceOfSatisfying(McpReply.Refused.class, r -> {
            assertThat(r.refusal()).isEqualTo(Refusal.MALFORMED);
            assertThat(r.body().getInt("id")).isEqualTo(3);
            assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_REQUEST);
            assertThat(r.body().getJsonObject("error").getString("message")).contains("initialized already", "without the Mcp-Session-Id");
        });
        assertThat(client.request("ping", "{}").getJsonObject("result")).as("the session lives on").isEmpty();

        // a header naming no live session of this caller (expired, deleted, another credential's) is
        // no session to protect: initialize opens a new one, as it would without the header
        McpTestClient other = new McpTestClient(gateway.mcp(), Principal.apiKey("other", ""));
        assertThat(other.send(Optional.of(live), initialize)).isInstanceOfSatisfying(McpReply.Response.class,
                r -> assertThat(r.newSessionId()).isPresent().get().isNotEqualTo(live));
        assertThat(client.send(Optional.of("no-such-session"), initialize)).isInstanceOfSatisfying(McpReply.Response.class,
                r -> assertThat(r.newSessionId()).isPresent());
    }

    @Test
    void unknownMethod_isMethodNotFound() {
        client.initialize("2025-11-25");
        JsonObject error = client.request("no/such", "{}").getJsonObject("error");
        assertThat(error.getInt("code")).isEqualTo(JsonRpc.METHOD_NOT_FOUND);
    }

    @Test
    void paramsThatAreNotAnObject_areInvalidParams() {
        client.initialize("2025-11-25");
        assertThat(client.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r ->
                        assertThat(r.body().getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INVALID_PARAMS));
    }

    @Test
    void everyMessage_passesTheInterceptorChainInOrder() {
        List<String> seen = new ArrayList<>();
        Gateway chained = Gateway.builder()
                .interceptor((call, next) -> { seen.add("outer:" + call.method()); return next.proceed(call); })
                .interceptor((call, next) -> { seen.add("inner:" + call.method()); return next.proceed(call); })
                .build();
        McpTestClient c = new McpTestClient(chained.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        c.request("tools/list", "{}");
        assertThat(seen).containsExactly("outer:initialize", "inner:initialize",
                "outer:notifications/initialized", "inner:notifications/initialized",
                "outer:tools/list", "inner:tools/list");
    }

    @Test
    void anInterceptorRefusal_reachesTheTransport() {
        Gateway refusing = Gateway.builder().interceptor((call, next) -> call.method().equals("tools/list")
                ? new McpResult.Refused(Refusal.RATE_LIMITED, jakarta.json.Json.createObjectBuilder().add("code", "OMCP_IDENTITY_RATE_LIMIT").build())
                : next.proceed(call)).build();
        McpTestClient c = new McpTestClient(refusing.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        assertThat(c.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .isInstanceOfSatisfying(McpReply.Refused.class, r -> assertThat(r.refusal()).isEqualTo(Refusal.RATE_LIMITED));
    }

    @Test
    void anInitializeOverTheSessionLimit_isRefusedBeforeTheChain_andOneTheChainRefuses_givesItsPlaceBack() {
        AtomicInteger initializesSeen = new AtomicInteger();
        AtomicInteger refuseNext = new AtomicInteger(1);
        Gateway limited = Gateway.builder().sessionLimits(1, 10).interceptor((call, next) -> {
            if (call.method().equals("initialize")) {
                initializesSeen.incrementAndGet();
                if (refuseNext.getAndSet(0) == 1) {
                    return new McpResult.Refused(Refusal.RATE_LIMITED, jakarta.json.Json.createObjectBuilder().add("code", "X").build());
                }
            }
            return next.proceed(call);
        }).build();
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        McpTestClient c = new McpTestClient(limited.mcp(), Principal.anonymous());

        // refused by the chain: the place it took is free again, so the next initialize gets it
        assertThat(c.send(Optional.empty(), initialize)).isInstanceOf(McpReply.Refused.class);
        assertThat(c.send(Optional.empty(), initialize)).isInstanceOfSatisfying(McpReply.Response.class,
                r -> assertThat(r.newSessionId()).isPresent());
        // over the limit: refused before any interceptor counts it
        assertThat(c.send(Optional.empty(), initialize)).isInstanceOfSatisfying(McpReply.Refused.class,
                r -> assertThat(r.refusal()).isEqualTo(Refusal.SESSION_LIMIT));
        assertThat(initializesSeen).hasValue(2);
    }

    @Test
    void loggingSetLevel_validatesTheLevel() {
        client.initialize("2025-11-25");
        assertThat(client.request("logging/setLevel", "{\"level\":\"warning\"}").getJsonObject("result")).isEmpty();
        assertThat(client.request("logging/setLevel", "{\"level\":\"loud\"}").getJsonObject("error").getInt("code"))
                .isEqualTo(JsonRpc.INVALID_PARAMS);
    }

    @Test
    void aToolWaitingForTheClient_isReleasedWhenItsSessionEnds_insteadOfWaitingOutItsTimeout() throws Exception {
        // a deleted session's client can no longer answer (its responses get 404): the wait is over
        Gateway asking = Gateway.builder().tool(askingTool("ask", java.time.Duration.ofMinutes(5))).build();
        McpTestClient c = new McpTestClient(asking.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<JsonObject> answer = executor.submit(() -> c.request("tools/call", "{\"name\":\"ask\",\"arguments\":{}}"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (c.notifications.stream().noneMatch(m -> "sampling/createMessage".equals(m.getString("method", "")))) {
                assertThat(System.nanoTime()).as("the tool asked the client").isLessThan(deadline);
                Thread.sleep(10);
            }
            assertThat(asking.mcp().endSession(c.sessionId(), Principal.anonymous()))
                    .isEqualTo(dev.omcp.ports.mcp.McpEndpoint.SessionStatus.ACTIVE);

            JsonObject result = answer.get(10, TimeUnit.SECONDS).getJsonObject("result");
            assertThat(result.getBoolean("isError")).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).contains("session ended");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aClientAnswerWithAnErrorThatIsNotAnObject_failsTheQuestionAsMalformed_notTheToolAsABug() throws Exception {
        // JSON-RPC 2.0 section 5.1: "error" is an object with code and message; a client that sends
        // a string (or a number) there answered badly, which the tool is told as it is told any
        // error answer, not a ClassCastException reported as a gateway bug
        for (String error : List.of("\"nope\"", "42", "[]", "null")) {
            JsonObject result = askAndAnswer("{\"error\":" + error + "}");
            assertThat(result.getBoolean("isError")).as(error).isTrue();
            assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).as(error)
                    .contains("sampling/createMessage").contains("error").doesNotContain("failed unexpectedly");
        }
    }

    @Test
    void theMessageOfAClientsErrorAnswer_reachesTheToolBoundedAndOnOneLine() throws Exception {
        // the client's text goes into the tool's exception, and from there into answers and logs
        String huge = "line one\\nforged line " + "x".repeat(100_000);
        String text = askAndAnswer("{\"error\":{\"code\":-1,\"message\":\"" + huge + "\"}}")
                .getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(text).contains("line one").doesNotContain("\n").hasSizeLessThan(1_000);
        // an error without a message is quoted bounded too
        String noMessage = askAndAnswer("{\"error\":{\"code\":-1,\"data\":\"" + "y".repeat(100_000) + "\"}}")
                .getJsonArray("content").getJsonObject(0).getString("text");
        assertThat(noMessage).hasSizeLessThan(1_000);
    }

    /** Runs a tool that asks the client, answers its question with {@code answerMembers}, and returns the tool's result. */
    private static JsonObject askAndAnswer(String answerMembers) throws Exception {
        Gateway asking = Gateway.builder().tool(askingTool("ask", java.time.Duration.ofSeconds(30))).build();
        McpTestClient c = new McpTestClient(asking.mcp(), Principal.anonymous());
        c.initialize("2025-11-25");
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<JsonObject> answer = executor.submit(() -> c.request("tools/call", "{\"name\":\"ask\",\"arguments\":{}}"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            Optional<JsonObject> question = Optional.empty();
            while (question.isEmpty()) {
                assertThat(System.nanoTime()).as("the tool asked the client").isLessThan(deadline);
                question = c.notifications.stream().filter(m -> "sampling/createMessage".equals(m.getString("method", ""))).findFirst();
                Thread.sleep(5);
            }
            String reply = "{\"jsonrpc\":\"2.0\",\"id\":\"" + question.get().getString("id") + "\"," + answerMembers.substring(1);
            assertThat(c.raw(reply)).isInstanceOf(McpReply.Accepted.class);
            return answer.get(10, TimeUnit.SECONDS).getJsonObject("result");
        } finally {
            executor.shutdownNow();
        }
    }

    /** A tool that asks the client for a sampling and reports how that went. */
    private static dev.omcp.ports.tools.Tool askingTool(String name, java.time.Duration timeout) {
        return new dev.omcp.ports.tools.Tool() {
            @Override
            public dev.omcp.ports.tools.ToolDefinition definition() {
                return new dev.omcp.ports.tools.ToolDefinition(name, name, "asks the client",
                        jakarta.json.Json.createObjectBuilder().add("type", "object").build(), Optional.empty(),
                        dev.omcp.ports.tools.ToolAnnotations.readOnlyLocal());
            }

            @Override
            public dev.omcp.ports.tools.ToolResult call(dev.omcp.ports.tools.ToolCall call) {
                try {
                    call.requestFromClient("sampling/createMessage", JsonObject.EMPTY_JSON_OBJECT, timeout);
                    return dev.omcp.ports.tools.ToolResult.text("answered", false);
                } catch (dev.omcp.ports.tools.ClientRequestException e) {
                    return dev.omcp.ports.tools.ToolResult.error(e.getMessage());
                } catch (java.util.concurrent.TimeoutException e) {
                    return dev.omcp.ports.tools.ToolResult.error("timed out");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return dev.omcp.ports.tools.ToolResult.error("interrupted");
                }
            }
        };
    }

    /** A tool without arguments that counts its runs. */
    private static dev.omcp.ports.tools.Tool countingTool(String name, AtomicInteger runs) {
        return new dev.omcp.ports.tools.Tool() {
            @Override
            public dev.omcp.ports.tools.ToolDefinition definition() {
                return new dev.omcp.ports.tools.ToolDefinition(name, name, "counts its runs",
                        jakarta.json.Json.createObjectBuilder().add("type", "object").build(), Optional.empty(),
                        dev.omcp.ports.tools.ToolAnnotations.readOnlyLocal());
            }

            @Override
            public dev.omcp.ports.tools.ToolResult call(dev.omcp.ports.tools.ToolCall call) {
                runs.incrementAndGet();
                return dev.omcp.ports.tools.ToolResult.text("ran", false);
            }
        };
    }

    private static McpInterceptor countingInterceptor(AtomicInteger counter) {
        return (call, next) -> {
            counter.incrementAndGet();
            return next.proceed(call);
        };
    }

    /** A gateway whose {@code tools/list} tells {@code entered} and then waits until its thread is interrupted (cancelled). */
    private static Gateway blockingToolsList(Runnable entered) {
        return Gateway.builder().interceptor((call, next) -> {
            if (call.method().equals("tools/list")) {
                entered.run();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    return McpResult.Failure.of(JsonRpc.REQUEST_REFUSED, "cancelled");
                }
            }
            return next.proceed(call);
        }).build();
    }
}
