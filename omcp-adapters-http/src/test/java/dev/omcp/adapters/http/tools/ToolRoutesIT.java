package dev.omcp.adapters.http.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.Refusal;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How each outcome of a tool call becomes an HTTP answer, on a real Javalin server on port 0. */
class ToolRoutesIT {
    private final AtomicReference<ToolOutcome> next = new AtomicReference<>();
    private final AtomicReference<Map<String, List<String>>> parameters = new AtomicReference<>();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private final AtomicInteger invocations = new AtomicInteger();
    private Javalin app;

    @BeforeEach
    void start() {
        InvokeTool tools = new InvokeTool() {
            @Override
            public ToolOutcome invoke(Principal caller, String tool, JsonObject arguments) {
                invocations.incrementAndGet();
                return next.get();
            }

            @Override
            public ToolOutcome invokeWithParameters(Principal caller, String tool, Map<String, List<String>> given, JsonObject fixed) {
                parameters.set(given);
                return next.get();
            }
        };
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            new ToolRoutes(tools).register(new ApiRoutes(config.routes));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> playground(String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/api/playground/invoke"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aResultIsItsStructuredContent_andQueryParametersReachTheTool() throws Exception {
        next.set(new ToolOutcome.Completed("list_services", ToolResult.structured(Jsonp.object().add("total", 0).build())));

        HttpResponse<String> response = get("/api/services?filter=pay&source=a&source=b");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"total\":0}");
        assertThat(parameters.get()).containsEntry("filter", List.of("pay")).containsEntry("source", List.of("a", "b"));
    }

    @Test
    void aRateLimitRefusalIs429WithRetryAfter_andKeepsItsBody() throws Exception {
        // spec 7.2: the rate limit body
        JsonObject body = Jsonp.object().add("code", "OMCP_IDENTITY_RATE_LIMIT").add("retryAfterSeconds", 7).add("limit", 60)
                .add("windowMs", 60000).build();
        next.set(new ToolOutcome.Refused("list_services", Refusal.RATE_LIMITED, body));

        HttpResponse<String> response = get("/api/services");

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).contains("7");
        assertThat(response.body()).contains("\"code\":\"OMCP_IDENTITY_RATE_LIMIT\"").contains("\"refusal\":" + body);
    }

    @Test
    void aPolicyRefusalIs403_andADispatcherErrorIs502() throws Exception {
        next.set(new ToolOutcome.Refused("get_topology", Refusal.FORBIDDEN, Jsonp.object().add("error", "not in your product").build()));
        HttpResponse<String> forbidden = get("/api/topology");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(forbidden.body()).contains("\"code\":\"OMCP_TOOL_CALL_REFUSED\"").contains("not in your product");

        next.set(new ToolOutcome.Failed("get_topology", -32603, "internal error"));
        HttpResponse<String> failed = get("/api/topology");
        assertThat(failed.statusCode()).isEqualTo(502);
        assertThat(failed.body()).contains("OMCP_TOOL_CALL_FAILED");
    }

    @Test
    void aPlaygroundBodyWithSeveralProblems_namesThemAll_andRunsNothing() throws Exception {
        HttpResponse<String> refused = playground("{\"tool\": \"query logs\", \"arguments\": [1], \"argumnets\": {}}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("\"code\":\"OMCP_INVALID_BODY\"")
                .contains("\"errors\":[\"unknown field 'argumnets'; allowed are [arguments, tool]\","
                        + "\"tool: required, a tool name (1-128 of A-Z a-z 0-9 _ - .) from tools/list\","
                        + "\"arguments: must be an object (the tool's arguments by name)\"]");
        assertThat(invocations).hasValue(0);
    }

    @Test
    void thePlaygroundShowsErrorResults_butNotRefusals() throws Exception {
        next.set(new ToolOutcome.Completed("query_logs", ToolResult.error("no logs source is configured")));
        HttpResponse<String> error = playground("{\"tool\": \"query_logs\"}");
        assertThat(error.statusCode()).isEqualTo(200);
        assertThat(error.body()).isEqualTo("{\"tool\":\"query_logs\",\"isError\":true,\"structuredContent\":null,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"no logs source is configured\"}]}");

        next.set(new ToolOutcome.Refused("query_logs", Refusal.RATE_LIMITED, Jsonp.object().add("retryAfterSeconds", 0.2).build()));
        HttpResponse<String> limited = playground("{\"tool\": \"query_logs\"}");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).contains("1");
    }
}
