package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RawHttpAnswers;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.io.StringReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Streamable HTTP transport at /mcp over real HTTP (spec 4.1, MCP 2025-11-25 "Transports"). */
class StreamableHttpIT {
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static McpHttpClient initialized() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize().statusCode()).isEqualTo(200);
        return client;
    }

    private static JsonObject error(HttpResponse<String> response) {
        return McpHttpClient.parse(response.body()).getJsonObject("error");
    }

    /**
     * Sends a GET or DELETE that should be refused: a GET the gateway serves instead opens an endless
     * stream, so the answer of a 200 is cut after its headers (as the test fails) instead of waiting
     * for a body that never ends.
     */
    private static HttpResponse<String> refusable(HttpRequest request) throws Exception {
        HttpResponse<InputStream> response = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        String body;
        try (InputStream in = response.body()) {
            body = response.statusCode() == 200 ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new HttpResponse<>() {
            @Override public int statusCode() { return response.statusCode(); }
            @Override public HttpRequest request() { return response.request(); }
            @Override public java.util.Optional<HttpResponse<String>> previousResponse() { return java.util.Optional.empty(); }
            @Override public java.net.http.HttpHeaders headers() { return response.headers(); }
            @Override public String body() { return body; }
            @Override public java.util.Optional<javax.net.ssl.SSLSession> sslSession() { return response.sslSession(); }
            @Override public URI uri() { return response.uri(); }
            @Override public HttpClient.Version version() { return response.version(); }
        };
    }

    @Test
    void initialize_answersJsonWithASessionIdHeader() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        HttpResponse<String> response = client.initialize();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(client.sessionId()).matches("[A-Za-z0-9_-]{43}");
        assertThat(McpHttpClient.parse(response.body()).getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-11-25");
    }

    @Test
    void toolsList_andToolsCall_workInTheSession() {
        McpHttpClient client = initialized();
        assertThat(client.call("tools/list", "{}").getJsonObject("result").getJsonArray("tools")).isNotEmpty();
        JsonObject result = client.call("tools/call", "{\"name\":\"test_simple_text\",\"arguments\":{}}").getJsonObject("result");
        assertThat(result.getJsonArray("content").getJsonObject(0).getString("text")).contains("simple text");
    }

    @Test
    void answers_areNotCompressedEvenWhenTheClientAcceptsGzip() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                Map.of("Accept-Encoding", "gzip, deflate, br"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(McpHttpClient.parse(response.body()).getJsonObject("result").getJsonArray("tools")).isNotEmpty();
    }

    @Test
    void answersLargerThanJettysOutputBuffer_declareTheirLengthInsteadOfBeingChunked() {
        // tools/list is larger than Jetty's default 32 KB buffer; a streamed (chunked) answer was what
        // such answers got before their length was declared (SignalToolsIT sends one beyond the 64 KB
        // buffer the gateway uses now)
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", Map.of());
        int bytes = response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertThat(bytes).isGreaterThan(32 * 1024);
        assertThat(response.headers().firstValue("Content-Length")).contains(Integer.toString(bytes));
        assertThat(response.headers().firstValue("Transfer-Encoding")).isEmpty();
    }

    @Test
    void notification_isAnswered202WithoutBody() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Map.of());
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
        assertThat(response.headers().firstValue("Content-Type")).as("no content, so no type of it").isEmpty();
    }

    @Test
    void aRequestMethodSentWithoutAnId_is400_andANotificationMethodSentWithOne_getsAnErrorAnswer() {
        McpHttpClient client = initialized();
        // tools/call as a notification: refused (MCP: input the server cannot accept gets an HTTP
        // error status) rather than run for nobody to read its answer
        HttpResponse<String> notification = client.post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}", Map.of());
        assertThat(notification.statusCode()).isEqualTo(400);
        assertThat(error(notification).getInt("code")).isEqualTo(-32600);
        assertThat(error(notification).getString("message")).contains("tools/call", "\"id\"");

        // notifications/initialized with an id is a request, and a request gets an answer, not a 202
        HttpResponse<String> request = client.post("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"notifications/initialized\"}", Map.of());
        assertThat(request.statusCode()).isEqualTo(200);
        assertThat(McpHttpClient.parse(request.body()).getInt("id")).isEqualTo(41);
        assertThat(error(request).getInt("code")).isEqualTo(-32601);
        assertThat(error(request).getString("message")).contains("notification", "without \"id\"");

        // the same messages in their proper form are served as before
        assertThat(client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Map.of()).statusCode()).isEqualTo(202);
        assertThat(client.call("tools/call", "{\"name\":\"test_simple_text\",\"arguments\":{}}").getJsonObject("result")).isNotNull();
    }

    @Test
    void aClientErrorResponseWithANullId_is202() {
        // JSON-RPC 2.0 and MCP 2025-11-25: a client that could not read a server request's id answers with an
        // error whose id is null (or missing); it answers nothing that waits, and is accepted as any response is
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", Map.of());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void initializeRepeatedInALiveSession_is400_opensNoSession_andTheSessionLivesOn() {
        McpHttpClient client = initialized();
        HttpResponse<String> again = client.post("""
                {"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},
                "clientInfo":{"name":"it","version":"1"}}}""", Map.of());
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.headers().firstValue("Mcp-Session-Id")).as("no second session").isEmpty();
        assertThat(McpHttpClient.parse(again.body()).getInt("id")).isEqualTo(5);
        assertThat(error(again).getInt("code")).isEqualTo(-32600);
        assertThat(error(again).getString("message")).contains("initialized already", "without the Mcp-Session-Id header", "DELETE /mcp");
        assertThat(client.call("ping", "{}").getJsonObject("result")).as("the session lives on").isEmpty();
    }

    @Test
    void requestsJettyCannotRead_areRefusedBeforeMcp_withTheContainersJsonCode_andTheSessionIsUntouched() {
        // docs/mcp.md "Requests the HTTP server cannot read": /mcp gets the container's answers too
        McpHttpClient client = initialized();
        String head = "Host: 127.0.0.1:" + gateway.port() + "\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\n";
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        String body = "Content-Length: " + ping.length() + "\r\n\r\n" + ping;
        Map<String, String> expected = Map.of(
                "POST /mcp%ZZ HTTP/1.1\r\n" + head + "Mcp-Session-Id: " + client.sessionId() + "\r\n" + body,
                "400 OMCP_MALFORMED_REQUEST",
                "POST /mcp?" + "q".repeat(10_000) + " HTTP/1.1\r\n" + head + "Mcp-Session-Id: " + client.sessionId() + "\r\n" + body,
                "414 OMCP_URI_TOO_LONG",
                "POST /mcp HTTP/1.1\r\n" + head + "Mcp-Session-Id: " + "s".repeat(10_000) + "\r\n" + body,
                "431 OMCP_HEADERS_TOO_LARGE");
        expected.forEach((request, answer) -> {
            String raw = Http.raw(gateway.port(), request);
            assertThat(raw).as(answer).startsWith("HTTP/1.1 " + answer.substring(0, 3));
            assertThat(raw).as(answer).contains("\"code\":\"" + answer.substring(4) + "\"").doesNotContain("jsonrpc")
                    .doesNotContain("qqqqqqqqqq").doesNotContain("ssssssssss");
        });
        assertThat(client.call("ping", "{}").getJsonObject("result")).as("the session lives on").isEmpty();
    }

    @Test
    void missingSession_is400WithAJsonRpcError() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", Map.of());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32600);
        assertThat(error(response).getString("message")).contains("MCP-Session-Id header is required");
    }

    @Test
    void unknownSession_is404() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                Map.of("Mcp-Session-Id", "not-a-session"));
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(error(response).getString("message")).contains("Session not found");
    }

    @Test
    void deletedSession_is404Afterwards() {
        McpHttpClient client = initialized();
        HttpResponse<String> deleted = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Mcp-Session-Id", client.sessionId()).DELETE().build());
        assertThat(deleted.statusCode()).isEqualTo(204);
        HttpResponse<String> after = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of());
        assertThat(after.statusCode()).isEqualTo(404);
        HttpResponse<String> again = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Mcp-Session-Id", client.sessionId()).DELETE().build());
        assertThat(again.statusCode()).isEqualTo(404);
    }

    @Test
    void unsupportedProtocolVersion_is400() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                Map.of("MCP-Protocol-Version", "2023-01-01"));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getString("message")).contains("Unsupported MCP-Protocol-Version '2023-01-01'");
    }

    @Test
    void aRepeatedProtocolVersionHeader_is400_onEveryMethod_soAnUnsupportedSecondValueCannotPassUnseen() {
        McpHttpClient client = initialized();
        for (String method : new String[] {"POST", "GET", "DELETE"}) {
            HttpRequest.BodyPublisher body = method.equals("POST")
                    ? HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                    : HttpRequest.BodyPublishers.noBody();
            HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", client.sessionId())
                    .header("MCP-Protocol-Version", "2025-11-25").header("MCP-Protocol-Version", "2023-01-01")
                    .method(method, body).build());
            assertThat(response.statusCode()).as(method).isEqualTo(400);
            assertThat(response.body()).as(method).contains("more than one MCP-Protocol-Version header");
        }
        // the refused DELETE ended nothing
        assertThat(client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}", Map.of()).statusCode()).isEqualTo(200);
    }

    @Test
    void unsupportedProtocolVersion_onGetAndDelete_is400_andTheSessionLives() {
        McpHttpClient client = initialized();
        for (String method : new String[] {"GET", "DELETE"}) {
            HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                    .header("MCP-Protocol-Version", "2023-01-01").method(method, HttpRequest.BodyPublishers.noBody()).build());
            assertThat(response.statusCode()).as(method).isEqualTo(400);
            assertThat(response.body()).as(method).contains("Unsupported MCP-Protocol-Version '2023-01-01'", "2025-11-25");
        }
        // the refused DELETE ended nothing
        assertThat(client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of()).statusCode()).isEqualTo(200);
        HttpResponse<String> deleted = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Mcp-Session-Id", client.sessionId()).header("MCP-Protocol-Version", "2025-11-25").DELETE().build());
        assertThat(deleted.statusCode()).isEqualTo(204);
    }

    @Test
    void batch_is400AndNothingRuns() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post(
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"omcp_test_sleep\",\"arguments\":{\"millis\":3000}}}]",
                Map.of());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32600);
        assertThat(error(response).getString("message")).contains("Batch requests are not supported");
    }

    @Test
    void batch_inA2025_03_26Session_isAnsweredWithAnArrayOfResponses() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize("2025-03-26").statusCode()).isEqualTo(200);
        HttpResponse<String> response = client.post("""
                [{"jsonrpc":"2.0","method":"notifications/initialized"},
                 {"jsonrpc":"2.0","id":1,"method":"ping"},
                 {"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"test_simple_text","arguments":{}}},
                 {"jsonrpc":"2.0","id":3}]""", Map.of());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        JsonArray answers = Json.createReader(new StringReader(response.body())).readArray();
        assertThat(answers).hasSize(3);
        assertThat(answers.getJsonObject(0).getInt("id")).isEqualTo(1);
        assertThat(answers.getJsonObject(1).getString("id")).isEqualTo("b");
        assertThat(answers.getJsonObject(1).getJsonObject("result").getJsonArray("content").getJsonObject(0).getString("text"))
                .contains("simple text");
        assertThat(answers.getJsonObject(2).getInt("id")).isEqualTo(3);
        assertThat(answers.getJsonObject(2).getJsonObject("error").getInt("code")).isEqualTo(-32600);
    }

    @Test
    void batch_ofOnlyNotifications_is202WithoutBody() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize("2025-03-26").statusCode()).isEqualTo(200);
        HttpResponse<String> response = client.post("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]", Map.of());
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void batch_whoseElementReportsProgress_becomesAnSseStreamEndingWithOneEventPerAnswer() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize("2025-03-26").statusCode()).isEqualTo(200);
        HttpResponse<String> response = client.post("""
                [{"jsonrpc":"2.0","id":1,"method":"ping"},
                 {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},
                 "_meta":{"progressToken":"p1"}}}]""", Map.of());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(response.body()).contains("notifications/progress");
        // every event is one message, as clients that parse each event as one JSON-RPC message expect
        List<JsonObject> events = response.body().lines().filter(line -> line.startsWith("data: ") && line.length() > 6)
                .map(line -> Json.createReader(new StringReader(line.substring(6))).readObject()).toList();
        assertThat(events.getFirst().getString("method")).isEqualTo("notifications/progress");
        assertThat(events.stream().filter(event -> event.containsKey("id")).map(event -> event.getInt("id"))).containsExactly(1, 2);
        assertThat(events.subList(events.size() - 2, events.size())).allSatisfy(event -> assertThat(event).containsKey("result"));
    }

    @Test
    void batch_withInitialize_is400AndNothingRuns() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize("2025-03-26").statusCode()).isEqualTo(200);
        HttpResponse<String> response = client.post("""
                [{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},
                "clientInfo":{"name":"it","version":"1"}}}]""", Map.of());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32600);
        assertThat(response.headers().firstValue("Mcp-Session-Id")).isEmpty();
    }

    @Test
    void unknownSession_onGetAndDelete_is404WithTheCodeAPostGets() {
        HttpResponse<String> post = new McpHttpClient(gateway.baseUrl()).post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                Map.of("Mcp-Session-Id", "not-a-session"));
        assertThat(post.statusCode()).isEqualTo(404);
        for (String method : new String[] {"GET", "DELETE"}) {
            HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", "not-a-session")
                    .method(method, HttpRequest.BodyPublishers.noBody()).build());
            assertThat(response.statusCode()).as(method).isEqualTo(404);
            assertThat(error(response).getInt("code")).as(method).isEqualTo(error(post).getInt("code")).isEqualTo(-32001);
            assertThat(error(response).getString("message")).as(method).isEqualTo(error(post).getString("message"));
        }
    }

    @Test
    void putAndPatch_are405WithAllow() {
        for (String method : new String[] {"PUT", "PATCH"}) {
            HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).build());
            assertThat(response.statusCode()).as(method).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).as(method).contains("GET, HEAD, POST, DELETE, OPTIONS");
            assertThat(error(response).getInt("code")).as(method).isEqualTo(-32600);
            assertThat(error(response).getString("message")).as(method).startsWith("Method Not Allowed").contains(method);
        }
    }

    @Test
    void optionsWithoutOrigin_is204WithAllow_andNeedsNoCredentials() {
        try (RunningGateway keyed = RunningGateway.start(Map.of("OMCP_API_KEYS", "agent:" + "k".repeat(32)))) {
            HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(keyed.baseUrl() + "/mcp"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build());
            assertThat(response.statusCode()).isEqualTo(204);
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD, POST, DELETE, OPTIONS");
            assertThat(response.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
            assertThat(response.body()).isEmpty();
        }
    }

    @Test
    void head_answersWhatGetWould_withoutOpeningTheStream() {
        McpHttpClient client = initialized();
        HttpRequest.Builder head = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10));
        HttpResponse<String> withoutAccept = Http.send(head.copy().build());
        assertThat(withoutAccept.statusCode()).isEqualTo(405);
        assertThat(withoutAccept.headers().firstValue("Allow")).contains("GET, HEAD, POST, DELETE, OPTIONS");
        assertThat(Http.send(head.copy().header("Accept", "text/event-stream").build()).statusCode()).isEqualTo(400);
        assertThat(Http.send(head.copy().header("Accept", "text/event-stream").header("Mcp-Session-Id", "not-a-session").build())
                .statusCode()).isEqualTo(404);
        HttpResponse<String> open = Http.send(head.copy().header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId()).build());
        assertThat(open.statusCode()).isEqualTo(200);
        assertThat(open.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(open.body()).isEmpty();
    }

    @Test
    void bodyOver1MiB_is413BeforeParsing() {
        McpHttpClient client = initialized();
        String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}}";
        HttpResponse<String> response = client.post(huge, Map.of());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(error(response).getString("message")).contains("at most 1048576 bytes");
    }

    @Test
    void bodyOver1MiB_isReadToItsEndBeforeThe413_soTheClientSeesTheAnswerNotAReset() throws Exception {
        McpHttpClient client = initialized();
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}}")
                .getBytes(StandardCharsets.US_ASCII);
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + client.sessionId() + "\r\n"
                + "MCP-Protocol-Version: 2025-06-18\r\nContent-Length: " + body.length + "\r\n\r\n";
        URI base = URI.create(gateway.baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            assertThat(RawHttpAnswers.answerToASlowBody(socket, head, body)).startsWith("HTTP/1.1 413").contains("at most 1048576 bytes")
                    .doesNotContainIgnoringCase("connection: close");
            assertThat(RawHttpAnswers.healthzOnTheSameConnection(socket)).as("the connection stays usable").startsWith("HTTP/1.1 ");
        }
    }

    @Test
    void chunkedBodyOver1MiB_is413_evenWhenItIsNotJson() {
        // no Content-Length: the limit is applied while reading, and before the parser sees a byte,
        // so this garbage is refused as too large and never as a parse error
        McpHttpClient client = initialized();
        byte[] garbage = ("{" + "x".repeat(1024 * 1024)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", client.sessionId())
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(garbage)))
                .build());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(error(response).getString("message")).contains("at most 1048576 bytes");
    }

    @Test
    void malformedJson_is400ParseError() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("{not json", Map.of());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32700);
    }

    @Test
    void bodyThatIsNotUtf8_is400ParseError() {
        McpHttpClient client = initialized();
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\u00ff\"}}".getBytes(StandardCharsets.ISO_8859_1);
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", client.sessionId())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32700);
    }

    @Test
    void nestingBeyondTheParserLimit_is400ParseError_notA500() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + "[".repeat(200) + "]".repeat(200) + "}}", Map.of());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(error(response).getInt("code")).isEqualTo(-32700);
        assertThat(client.call("ping", "{}").getJsonObject("result")).isEmpty();
    }

    @Test
    void wrongContentType_is415() {
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(error(response).getInt("code")).isEqualTo(-32600);
    }

    @Test
    void aContentTypeThatIsNotExactlyApplicationJson_orNamesAnotherCharset_is415WithAJsonRpcError_andNothingRuns() {
        // docs/mcp.md "Streamable HTTP rules": application/json, charset utf-8 or none
        McpHttpClient client = initialized();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{}}}";
        for (String type : List.of("application/jsonp", "application/json-seq", "application/json; charset=iso-8859-1",
                "application/json, text/plain")) {
            HttpResponse<String> response = client.post(call, Map.of("Content-Type", type));
            assertThat(response.statusCode()).as(type).isEqualTo(415);
            assertThat(response.headers().firstValue("Content-Type")).as(type).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
            assertThat(McpHttpClient.parse(response.body()).getString("jsonrpc")).as(type).isEqualTo("2.0");
            assertThat(error(response).getInt("code")).as(type).isEqualTo(-32600);
            assertThat(error(response).getString("message")).as(type).startsWith("Unsupported Media Type").contains("application/json");
        }
        // the same message with the type in another letter case and a UTF-8 charset is served
        HttpResponse<String> served = client.post(call, Map.of("Content-Type", "Application/JSON; charset=\"UTF-8\""));
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(McpHttpClient.parse(served.body()).getJsonObject("result")).isNotNull();
    }

    @Test
    void anAcceptThatAllowsNeitherJsonNorTheStream_is406_evenWhenItNamesThemWithQZero() {
        // RFC 9110 12.5.1: q=0 means "not acceptable"; the most specific range decides
        McpHttpClient client = initialized();
        for (String accept : List.of("application/json;q=0, text/event-stream;q=0", "*/*;q=0", "text/html",
                "application/jsonp", "*/*, application/json;q=0, text/event-stream;q=0")) {
            HttpResponse<String> response = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of("Accept", accept));
            assertThat(response.statusCode()).as(accept).isEqualTo(406);
            assertThat(error(response).getInt("code")).as(accept).isEqualTo(-32600);
            assertThat(error(response).getString("message")).as(accept).contains("Accept: application/json, text/event-stream");
        }
        assertThat(client.call("ping", "{}").getJsonObject("result")).as("the session lives on").isEmpty();
    }

    @Test
    void aClientThatAcceptsOnlyTheStream_getsEveryAnswerAsSse() {
        // a JSON body to a client that refused JSON would be an answer it said it cannot read
        McpHttpClient client = new McpHttpClient(gateway.baseUrl(), Map.of("Accept", "text/event-stream"));
        HttpResponse<String> initialize = client.initialize();
        assertThat(initialize.statusCode()).isEqualTo(200);
        assertThat(initialize.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(client.sessionId()).as("the session header goes out with the stream").matches("[A-Za-z0-9_-]{43}");
        assertThat(McpHttpClient.parse(McpHttpClient.lastMessage(initialize)).getJsonObject("result").getString("protocolVersion"))
                .isEqualTo("2025-11-25");
        for (String accept : List.of("text/event-stream", "TEXT/*", "*/*, application/json;q=0")) {
            HttpResponse<String> ping = client.post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", Map.of("Accept", accept));
            assertThat(ping.statusCode()).as(accept).isEqualTo(200);
            assertThat(ping.headers().firstValue("Content-Type")).as(accept).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
            assertThat(McpHttpClient.parse(McpHttpClient.lastMessage(ping)).getInt("id")).as(accept).isEqualTo(7);
        }
        // a client that allows JSON gets JSON, whatever else it allows
        HttpResponse<String> json = client.post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}", Map.of("Accept", "application/*"));
        assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    }

    @Test
    void aMalformedSessionId_is400OnPostGetAndDelete_andOneOfTheRightShapeButUnknown_is404() throws Exception {
        // MCP: a session id holds only visible ASCII (0x21 to 0x7E)
        McpHttpClient client = initialized();
        for (String junk : List.of("", "abc def")) {
            HttpResponse<String> post = client.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of("Mcp-Session-Id", junk));
            assertThat(post.statusCode()).as("POST '%s'", junk).isEqualTo(400);
            assertThat(error(post).getString("message")).as(junk).startsWith("Bad Request: the Mcp-Session-Id header");
            for (String method : new String[] {"GET", "DELETE"}) {
                HttpResponse<String> response = refusable(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                        .header("Accept", "text/event-stream").header("Mcp-Session-Id", junk).timeout(Duration.ofSeconds(10))
                        .method(method, HttpRequest.BodyPublishers.noBody()).build());
                assertThat(response.statusCode()).as("%s '%s'", method, junk).isEqualTo(400);
                assertThat(error(response).getString("message")).as(junk).contains("Mcp-Session-Id");
            }
        }
        // a byte beyond ASCII, as a raw request can send it
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        String raw = Http.raw(gateway.port(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port() + "\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nAccept: application/json\r\nMcp-Session-Id: " + client.sessionId().substring(1)
                + "\u00e9\r\nContent-Length: " + ping.length() + "\r\n\r\n" + ping);
        assertThat(raw).startsWith("HTTP/1.1 400").contains("visible ASCII");
        // visible ASCII of any length up to what the server reads is an unknown session, as MCP has it (404: initialize again)
        for (String unknown : List.of("not-a-session", "x".repeat(4000), client.sessionId() + "x")) {
            HttpResponse<String> response = client.post(ping, Map.of("Mcp-Session-Id", unknown));
            assertThat(response.statusCode()).as(unknown).isEqualTo(404);
            assertThat(error(response).getInt("code")).isEqualTo(-32001);
        }
        assertThat(client.call("ping", "{}").getJsonObject("result")).as("the session lives on").isEmpty();
    }

    @Test
    void aSupportedProtocolVersionHeaderOtherThanTheNegotiatedOne_isServed_asTheOfficialConformanceClientsSendIt() throws Exception {
        // The MCP conformance suite's multiple-streams scenario negotiates 2025-11-25 and then posts with
        // MCP-Protocol-Version: 2025-03-26, as the TypeScript SDK's servers accept; refusing it (400) failed that scenario.
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        assertThat(client.initialize("2025-11-25").statusCode()).isEqualTo(200);
        HttpResponse<String> post = client.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}",
                Map.of("MCP-Protocol-Version", "2025-03-26"));
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(McpHttpClient.parse(post.body()).getJsonObject("result").getJsonArray("tools")).isNotEmpty();
        // a revision the gateway does not speak is still refused
        assertThat(client.post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}", Map.of("MCP-Protocol-Version", "2024-01-01"))
                .statusCode()).isEqualTo(400);
    }

    @Test
    void foreignOrigin_is403() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl(), Map.of("Origin", "https://evil.example"));
        HttpResponse<String> response = client.initialize();
        assertThat(response.statusCode()).isEqualTo(403);
        JsonObject body = McpHttpClient.parse(response.body());
        assertThat(body.getString("code")).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(body.getString("error")).contains("OMCP_ALLOWED_ORIGINS");
    }

    @Test
    void aListedOrigin_getsItsCorsPreflight_withTheMethodsAndHeadersTheGatewayServes() {
        try (RunningGateway cors = RunningGateway.start(Map.of("OMCP_ALLOWED_ORIGINS", "https://ui.example.com"))) {
            HttpResponse<String> preflight = Http.send(HttpRequest.newBuilder(URI.create(cors.baseUrl() + "/mcp"))
                    .header("Origin", "https://ui.example.com").header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "content-type, mcp-session-id")
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build());

            assertThat(preflight.statusCode()).isEqualTo(204);
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).contains("https://ui.example.com");
            // no route answers PATCH (PATCH /mcp is a 405), so a preflight does not offer it
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).contains("GET, POST, PUT, PATCH, DELETE, OPTIONS");
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElseThrow())
                    .contains("Content-Type", "Mcp-Session-Id", "Mcp-Protocol-Version", "Authorization");
            assertThat(preflight.headers().firstValue("Vary")).contains("Origin");
            // answered before any route, so not by /mcp's OPTIONS handler: Javalin's default text/plain named content not there
            assertThat(preflight.body()).isEmpty();
            assertThat(preflight.headers().firstValue("Content-Type")).isEmpty();

            HttpResponse<String> foreign = Http.send(HttpRequest.newBuilder(URI.create(cors.baseUrl() + "/mcp"))
                    .header("Origin", "https://evil.example").header("Access-Control-Request-Method", "POST")
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build());
            assertThat(foreign.statusCode()).isEqualTo(403);
            assertThat(foreign.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }
    }

    @Test
    void sameOrigin_isAccepted() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl(), Map.of("Origin", "http://127.0.0.1:" + gateway.port()));
        assertThat(client.initialize().statusCode()).isEqualTo(200);
    }

    @Test
    void foreignHost_is403() {
        String response = Http.raw(gateway.port(), "POST /mcp HTTP/1.1\r\nHost: evil.example:" + gateway.port()
                + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertThat(response).startsWith("HTTP/1.1 403");
        assertThat(response).contains("\"code\":\"OMCP_HOST_REJECTED\"");
    }

    @Test
    void loopbackHostNames_areAccepted() {
        for (String host : new String[] {"localhost", "127.0.0.1", "[::1]"}) {
            String response = Http.raw(gateway.port(), "GET /healthz HTTP/1.1\r\nHost: " + host + ":" + gateway.port()
                    + "\r\nConnection: close\r\n\r\n");
            assertThat(response).as(host).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void progressNotifications_switchTheResponseToSse() {
        McpHttpClient client = initialized();
        HttpResponse<String> response = client.post("""
                {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},
                "_meta":{"progressToken":"p1"}}}""", Map.of());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(response.body()).contains("notifications/progress").contains("\"progressToken\":\"p1\"");
        // the server writes the notifications in the order the tool reported them, before the result
        String body = response.body();
        int first = body.indexOf("\"progress\":0");
        int second = body.indexOf("\"progress\":50");
        int third = body.indexOf("\"progress\":100");
        assertThat(first).as(body).isNotNegative();
        assertThat(second).as(body).isGreaterThan(first);
        assertThat(third).as(body).isGreaterThan(second);
        assertThat(McpHttpClient.parse(McpHttpClient.lastMessage(response)).getInt("id")).isEqualTo(9);
    }

    @Test
    void getWithoutEventStreamAccept_is405() throws Exception {
        // MCP 2025-11-25: a GET the server does not serve as an SSE stream gets 405; q=0 is "not acceptable"
        for (String accept : new String[] {"application/json", "text/html", "text/event-stream;q=0", "*/*;q=0",
                "*/*, text/event-stream;q=0"}) {
            HttpResponse<String> response = refusable(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", accept).timeout(Duration.ofSeconds(10)).GET().build());
            assertThat(response.statusCode()).as(accept).isEqualTo(405);
            assertThat(response.body()).as(accept).contains("Accept: text/event-stream");
        }
    }

    @Test
    void getWithTheWildcardAcceptCurlSends_opensTheStream() throws Exception {
        // and so do the other ranges that allow text/event-stream (RFC 9110 12.5.1), in any letter case
        for (String accept : List.of("*/*", "text/*", "Text/Event-Stream; q=0.5")) {
            McpHttpClient client = initialized();
            HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", accept).header("Mcp-Session-Id", client.sessionId())
                    .timeout(Duration.ofSeconds(10)).GET().build();
            HttpResponse<java.io.InputStream> stream = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body()))) {
                assertThat(stream.statusCode()).as(accept).isEqualTo(200);
                assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
                assertThat(reader.readLine()).startsWith("id: ");
            }
        }
    }

    @Test
    void getStream_deliversListChangedNotifications() throws Exception {
        McpHttpClient client = initialized();
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                .timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<java.io.InputStream> stream = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body()))) {
            assertThat(reader.readLine()).startsWith("id: ");
            gateway.assembly().gateway().tools().register(new dev.omcp.app.support.NamedTool("late_tool"));
            String line;
            boolean sawListChanged = false;
            while ((line = reader.readLine()) != null) {
                if (line.contains("notifications/tools/list_changed")) {
                    sawListChanged = true;
                    break;
                }
            }
            assertThat(sawListChanged).isTrue();
        } finally {
            gateway.assembly().gateway().tools().unregister("late_tool");
        }
    }

    /** Opens the session's GET stream and reads its priming event. */
    private static java.io.BufferedReader openStream(McpHttpClient client) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                .timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<InputStream> stream = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        assertThat(reader.readLine()).startsWith("id: ");
        return reader;
    }

    /** Whether the stream reaches its end within five seconds (keep-alives come only every 15 s). */
    private static boolean endsSoon(java.io.BufferedReader reader) throws Exception {
        java.util.concurrent.CompletableFuture<Boolean> ended = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                while (reader.readLine() != null) {
                    // the rest of the priming event
                }
                return true;
            } catch (java.io.IOException e) {
                return true;
            }
        });
        try {
            return ended.get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            reader.close();
            return false;
        }
    }

    @Test
    void deletingTheSession_endsItsGetStreamAtOnce() throws Exception {
        McpHttpClient client = initialized();
        try (java.io.BufferedReader stream = openStream(client)) {
            HttpResponse<String> deleted = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Mcp-Session-Id", client.sessionId()).DELETE().build());
            assertThat(deleted.statusCode()).isEqualTo(204);
            assertThat(endsSoon(stream)).as("the stream of a deleted session must not live on").isTrue();
        }
    }

    @Test
    void aSecondGetStream_replacesTheFirst_soASessionHoldsOneAtATime() throws Exception {
        McpHttpClient client = initialized();
        try (java.io.BufferedReader first = openStream(client); java.io.BufferedReader second = openStream(client)) {
            assertThat(endsSoon(first)).as("the older stream ends").isTrue();
            gateway.assembly().gateway().tools().register(new dev.omcp.app.support.NamedTool("late_tool_2"));
            try {
                String line;
                boolean sawListChanged = false;
                while ((line = second.readLine()) != null) {
                    if (line.contains("notifications/tools/list_changed")) {
                        sawListChanged = true;
                        break;
                    }
                }
                assertThat(sawListChanged).as("the newer stream carries the session's notifications").isTrue();
            } finally {
                gateway.assembly().gateway().tools().unregister("late_tool_2");
            }
        }
    }

    @Test
    void resumingAPostStream_replaysItsAnswerOnItsOwn_andLeavesTheSessionsOwnStreamOpen() throws Exception {
        // A client whose POST stream broke resumes it with a GET and the last event id it read (the
        // official SDK's does); served as the session's stream, that GET took over the client's own
        // standalone stream, which the client reconnected and took back, over and over.
        McpHttpClient client = initialized();
        try (java.io.BufferedReader standalone = openStream(client)) {
            HttpResponse<String> post = client.post("""
                    {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},
                    "_meta":{"progressToken":"p1"}}}""", Map.of());
            List<String> ids = post.body().lines().filter(line -> line.startsWith("id: ")).map(line -> line.substring(4)).toList();
            String beforeTheAnswer = ids.get(ids.size() - 2);

            HttpResponse<String> resumed = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                    .header("Last-Event-ID", beforeTheAnswer).timeout(Duration.ofSeconds(10)).GET().build());
            assertThat(resumed.statusCode()).isEqualTo(200);
            assertThat(resumed.body()).as("the answer again, under its own id, and the stream ends")
                    .contains("id: " + ids.getLast()).contains("\"id\":9").contains("\"result\"");

            String unknown = ids.getLast().substring(0, ids.getLast().lastIndexOf('.')) + ".ffffff-1";
            HttpResponse<String> refused = refusable(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/mcp"))
                    .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId())
                    .header("Last-Event-ID", unknown).timeout(Duration.ofSeconds(10)).GET().build());
            assertThat(refused.statusCode()).as("a POST stream the gateway does not keep").isEqualTo(405);
            assertThat(refused.headers().firstValue("Allow")).contains("GET, HEAD, POST, DELETE, OPTIONS");
            assertThat(error(refused).getString("message")).contains("cannot be resumed").contains("send that request again");

            gateway.assembly().gateway().tools().register(new dev.omcp.app.support.NamedTool("late_tool_3"));
            try {
                String line;
                boolean sawListChanged = false;
                while ((line = standalone.readLine()) != null) {
                    if (line.contains("notifications/tools/list_changed")) {
                        sawListChanged = true;
                        break;
                    }
                }
                assertThat(sawListChanged).as("the session's own stream still carries its notifications").isTrue();
            } finally {
                gateway.assembly().gateway().tools().unregister("late_tool_3");
            }
        }
    }

    @Test
    void requestsRunOnVirtualThreads() {
        McpHttpClient client = initialized();
        JsonObject result = client.call("tools/call", "{\"name\":\"omcp_test_thread\",\"arguments\":{}}").getJsonObject("result");
        assertThat(result.getJsonObject("structuredContent").getBoolean("virtual"))
                .as("handler thread: %s", result.getJsonObject("structuredContent").getString("thread"))
                .isTrue();
    }
}
