package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.Http;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** spec 4.2: the endpoints that answer without credentials. */
class PublicEndpointsIT {
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static JsonObject json(String path) {
        HttpResponse<String> response = Http.get(gateway.baseUrl() + path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return McpHttpClient.parse(response.body());
    }

    @Test
    void metrics_countMadeUpHttpMethodsAsOther_soAnonymousClientsCannotGrowTheSeries() {
        for (int i = 0; i < 20; i++) {
            // a method token of the client's own, and an override header Javalin also takes as the method
            Http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(gateway.baseUrl() + "/healthz"))
                    .method("INVENTED" + i, java.net.http.HttpRequest.BodyPublishers.noBody()).build());
            Http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(gateway.baseUrl() + "/healthz"))
                    .header("X-HTTP-Method-Override", "OVERRIDE" + i).GET().build());
        }
        String metrics = Http.get(gateway.baseUrl() + "/metrics").body();
        assertThat(metrics).doesNotContain("INVENTED").doesNotContain("OVERRIDE").contains("method=\"(other)\"");
    }

    @Test
    void healthzAndReadyz_answerOk() {
        assertThat(json("/healthz").getString("status")).isEqualTo("ok");
        assertThat(json("/readyz").getString("status")).isEqualTo("ready");
    }

    @Test
    void metrics_exposeRouteAndMcpMethodCountersAndJvmMetricsInTextFormat() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        client.initialize();
        client.call("tools/list", "{}");
        client.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"evil/" + "x".repeat(50) + "\"}", java.util.Map.of());
        HttpResponse<String> response = Http.get(gateway.baseUrl() + "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
        assertThat(response.body())
                .contains("omcp_http_requests_total{method=\"POST\",route=\"/mcp\",status=\"200\"}")
                .contains("omcp_http_request_duration_seconds_bucket")
                .contains("omcp_mcp_requests_total{method=\"tools/list\",outcome=\"ok\",transport=\"streamable-http\"}")
                .contains("omcp_mcp_request_duration_seconds_bucket{method=\"initialize\",le=\"0.001\"}")
                .contains("method=\"(unknown)\"")
                .doesNotContain("evil/")
                .contains("jvm_memory_used_bytes");
    }

    @Test
    void metrics_countTheNotificationsTheGatewayHandles_eachUnderItsName_andAMadeUpOneAsUnknown() {
        McpHttpClient client = new McpHttpClient(gateway.baseUrl());
        client.initialize();
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", java.util.Map.of());
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}", java.util.Map.of());
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}", java.util.Map.of());
        client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/made_up_" + "x".repeat(20) + "\"}", java.util.Map.of());
        String metrics = Http.get(gateway.baseUrl() + "/metrics").body();
        for (String name : List.of("notifications/initialized", "notifications/roots/list_changed", "notifications/cancelled")) {
            assertThat(metrics).contains(
                    "omcp_mcp_requests_total{method=\"" + name + "\",outcome=\"accepted\",transport=\"streamable-http\"}");
        }
        assertThat(metrics).as("a name the gateway does not handle stays bounded").doesNotContain("made_up_")
                .contains("omcp_mcp_requests_total{method=\"(unknown)\",outcome=\"accepted\",transport=\"streamable-http\"}");
    }

    @Test
    void info_carriesNameVersionRevisionsAndTheGovernanceBlockOnly() {
        JsonObject info = json("/api/info");
        assertThat(info.getString("name")).isEqualTo("omcp");
        assertThat(info.getString("version")).isEqualTo(dev.omcp.app.cli.VersionProvider.version());
        assertThat(info.getJsonArray("protocolRevisions").getString(0)).isEqualTo("2025-11-25");
        JsonObject governance = info.getJsonObject("governance");
        assertThat(governance.keySet()).containsExactlyInAnyOrder("authMode", "authSecretEphemeral", "auditPersisted",
                "catalogConfigured", "redaction", "trustProxy", "toolRatePerMin", "anomalyHistoryActive", "tracesCapabilityCount");
        assertThat(governance.getString("authMode")).isEqualTo("anonymous");
        assertThat(governance.getInt("tracesCapabilityCount")).as("no sources").isZero();
        assertThat(governance.getBoolean("redaction")).as("on unless OMCP_REDACTION=off (spec 5.7)").isTrue();
        assertThat(governance.getBoolean("catalogConfigured")).isFalse();
        assertThat(governance.getBoolean("anomalyHistoryActive")).isFalse();
        assertThat(info.toString()).doesNotContain("/tmp").doesNotContain("/app/");
    }

    @Test
    void conformance_reportsRevisionsTransportsAndMethods() {
        JsonObject conformance = json("/api/conformance");
        assertThat(conformance.getJsonArray("revisions").getValuesAs(jakarta.json.JsonString::getString))
                .containsExactly("2025-11-25", "2025-06-18", "2025-03-26");
        assertThat(conformance.getJsonArray("transports").toString()).contains("streamable-http", "websocket");
        assertThat(conformance.getJsonArray("methods").toString()).contains("tools/call", "prompts/get", "completion/complete");
        JsonObject suite = conformance.getJsonArray("verifiedBy").getJsonObject(0);
        assertThat(suite.getString("name")).isEqualTo("@modelcontextprotocol/conformance");
        assertThat(suite.getJsonArray("transports").toString()).as("the suite drives Streamable HTTP only")
                .isEqualTo("[\"streamable-http\"]");
        assertThat(suite.getJsonArray("expectedFailures")).isEmpty();
    }

    @Test
    void me_isTheAnonymousIdentityWithEveryPermissionInAnonymousMode() {
        JsonObject me = json("/api/me");
        assertThat(me.getString("sub")).isEqualTo("anonymous");
        assertThat(me.getJsonArray("permissions").toString()).contains("sources:write", "users:delete", "redaction:bypass");
    }

    @Test
    void openApi_offersOnlyTheSessionCookie_theOneCredentialTheManagementApiTakes() {
        JsonObject openApi = json("/api/openapi.json");
        assertThat(openApi.getJsonObject("components").getJsonObject("securitySchemes").keySet()).containsExactly("session");
        assertThat(openApi.getJsonArray("security")).hasSize(1);
        assertThat(openApi.getJsonArray("security").getJsonObject(0).keySet()).containsExactly("session");
    }

    @Test
    void openApi_carriesTheVersionTheGatewayReportsInItsInfo() {
        assertThat(json("/api/openapi.json").getJsonObject("info").getString("version"))
                .isEqualTo(json("/api/info").getString("version"))
                .isEqualTo(dev.omcp.app.cli.VersionProvider.version());
    }

    @Test
    void unknownApiRoute_isJson404() {
        HttpResponse<String> response = Http.get(gateway.baseUrl() + "/api/nope");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(McpHttpClient.parse(response.body()).getString("code")).isEqualTo("OMCP_NOT_FOUND");
    }
}
