package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** spec 5.4: OMCP_API_KEYS bearer tokens on the agent transport. */
class BearerTokenIT {
    private static final String CI_TOKEN = "ci-0123456789abcdef0123";
    private static final String BOT_TOKEN = "bot-0123456789abcdef0123";
    private static RunningGateway gateway;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(Map.of("OMCP_API_KEYS", "ci:" + CI_TOKEN + ",bot:" + BOT_TOKEN));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void noToken_is401WithWwwAuthenticateAndAJsonBody() {
        HttpResponse<String> response = new McpHttpClient(gateway.baseUrl()).initialize();
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        JsonObject body = McpHttpClient.parse(response.body());
        assertThat(body.getString("code")).isEqualTo("OMCP_AUTH_REQUIRED");
        assertThat(body.getString("error")).contains("Authorization: Bearer");
    }

    @Test
    void wrongToken_is401AndTheTokenIsNotEchoed() {
        HttpResponse<String> response = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer guessed-token-value-123"))
                .initialize();
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).contains("invalid_token"));
        assertThat(response.body()).doesNotContain("guessed-token-value-123");
    }

    @Test
    void bearerHeader_andXApiKey_areBothAccepted() {
        assertThat(new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + CI_TOKEN)).initialize().statusCode()).isEqualTo(200);
        assertThat(new McpHttpClient(gateway.baseUrl(), Map.of("X-API-Key", BOT_TOKEN)).initialize().statusCode()).isEqualTo(200);
    }

    @Test
    void aSession_isBoundToTheCredentialThatCreatedIt() {
        McpHttpClient ci = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + CI_TOKEN));
        ci.initialize();
        McpHttpClient bot = new McpHttpClient(gateway.baseUrl(), Map.of("Authorization", "Bearer " + BOT_TOKEN));
        HttpResponse<String> stolen = bot.post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                Map.of("Mcp-Session-Id", ci.sessionId()));
        assertThat(stolen.statusCode()).isEqualTo(404);
        assertThat(ci.call("tools/list", "{}").getJsonObject("result")).isNotNull();
    }
}
