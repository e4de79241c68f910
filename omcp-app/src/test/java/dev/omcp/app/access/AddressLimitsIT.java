package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec 8, "IP-level limit of other endpoints" (docs/access-control.md, "Per-address limits"): the failed-credential
 * limit of /mcp, /mcp/ws and /scim/v2 and the request limit of /api, through the launcher's wiring and real HTTP. Every
 * request comes from 127.0.0.1; with OMCP_TRUST_PROXY=loopback, X-Forwarded-For names the client, so one test plays
 * several clients. The gateway's clock is a manual one: a window ends only when a test moves it.
 */
class AddressLimitsIT {
    private static final String TOKEN = "agent-0123456789abcdef0123";
    private static final String WRONG = "guess-0123456789abcdef0123";
    private static final String SCIM_TOKEN = "scim-bearer-0123456789abcdef";
    private static final String GUESSER = "203.0.113.7";
    private static final String NEIGHBOUR = "198.51.100.9";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    private static final Instant NOW = Instant.parse("2026-05-04T10:00:00Z");
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private TestGateway start(Map<String, String> settings) {
        Map<String, String> env = new HashMap<>(settings);
        env.put("OMCP_API_KEYS", "agent:" + TOKEN);
        gateway = TestGateway.start(env, clock);
        return gateway;
    }

    @Test
    void the31stRequestAfter30WrongTokens_is429WithoutItsTokenChecked_aValidTokenFromThatAddressWaitsToo_untilTheMinuteEnds()
            throws Exception {
        // spec 8: a limit exists; docs/access-control.md: 30 missing or wrong credentials per address a minute by default
        start(Map.of("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "", "OMCP_TRUST_PROXY", "loopback"));
        for (int i = 0; i < 30; i++) {
            assertThat(mcp(WRONG, GUESSER).statusCode()).as("guess %d", i + 1).isEqualTo(401);
            clock.advance(Duration.ofSeconds(1));
        }

        HttpResponse<String> refused = mcp(WRONG, GUESSER);
        assertThat(refused.statusCode()).isEqualTo(429);
        // the window opened with the first guess, 30 s ago
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
        assertThat(refused.headers().firstValue("WWW-Authenticate")).as("says nothing of the token").isEmpty();
        JsonNode body = MAPPER.readTree(refused.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_ADDRESS_AUTH_FAILURE_LIMIT");
        assertThat(body.path("retryAfterSeconds").asInt()).isEqualTo(30);
        assertThat(body.path("limit").asInt()).isEqualTo(30);
        assertThat(body.path("windowMs").asLong()).isEqualTo(60_000);
        assertThat(body.path("error").asText()).contains("a valid one too").contains("30 s").doesNotContain(WRONG);

        HttpResponse<String> valid = mcp(TOKEN, GUESSER);
        assertThat(valid.statusCode()).as("a valid token from that address is not checked either").isEqualTo(429);
        assertThat(valid.body()).doesNotContain("Mcp-Session-Id").contains("OMCP_ADDRESS_AUTH_FAILURE_LIMIT");
        assertThat(metrics()).as("the refused requests never reached the credential check")
                .contains("omcp_mcp_refusals_total{reason=\"unauthenticated\",transport=\"streamable-http\"} 30.0")
                .contains("omcp_mcp_refusals_total{reason=\"address-auth-failures\",transport=\"streamable-http\"} 2.0")
                .contains("omcp_address_limit_refusals_total{limit=\"credential-failures\"} 2.0");

        assertThat(mcp(TOKEN, NEIGHBOUR).statusCode()).as("another address is served").isEqualTo(200);
        assertThat(mcp(WRONG, NEIGHBOUR).statusCode()).as("and has its own count").isEqualTo(401);

        clock.advance(Duration.ofSeconds(30));
        assertThat(mcp(TOKEN, GUESSER).statusCode()).as("the minute ended").isEqualTo(200);
        assertThat(mcp(WRONG, GUESSER).statusCode()).isEqualTo(401);
    }

    @Test
    void anAddressOverItsFailures_isRefusedOnEveryPathOfTheAgentTransportAndScim_andTheUpgrade() throws Exception {
        EntitlementIssuer issuer = new EntitlementIssuer();
        start(Map.of("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "2", "OMCP_TRUST_PROXY", "loopback",
                "OMCP_SCIM_TOKEN", SCIM_TOKEN, "OMCP_SCIM_STORE", dir.resolve("scim.json").toString(),
                "OMCP_ENTITLEMENT_TOKEN", issuer.token("scim", NOW.minusSeconds(60), NOW.plusSeconds(86_400)),
                "OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem()));
        assertThat(mcp(WRONG, GUESSER).statusCode()).isEqualTo(401);
        assertThat(mcp(null, GUESSER).statusCode()).as("a missing credential counts too").isEqualTo(401);

        assertThat(send(request("/mcp/v/anything", GUESSER).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))).statusCode()).isEqualTo(429);
        assertThat(send(request("/mcp", GUESSER).GET()).statusCode()).isEqualTo(429);
        assertThat(send(request("/scim/v2/Users", GUESSER).header("Authorization", "Bearer " + SCIM_TOKEN).GET()).statusCode())
                .as("the identity provider's token from that address waits too").isEqualTo(429);
        String upgrade = raw("GET /mcp/ws HTTP/1.1\r\nHost: 127.0.0.1:" + gateway.port() + "\r\nX-Forwarded-For: " + GUESSER
                + "\r\nAuthorization: Bearer " + TOKEN + "\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertThat(upgrade).startsWith("HTTP/1.1 429").doesNotContainIgnoringCase("Sec-WebSocket-Accept")
                .containsIgnoringCase("Retry-After: 60").contains("\"OMCP_ADDRESS_AUTH_FAILURE_LIMIT\"");
        assertThat(metrics()).contains("omcp_mcp_refusals_total{reason=\"address-auth-failures\",transport=\"websocket\"} 1.0")
                .contains("omcp_address_limit_refusals_total{limit=\"credential-failures\"} 4.0");

        assertThat(send(request("/healthz", GUESSER).GET()).statusCode()).as("the probes are outside the limit").isEqualTo(200);
        assertThat(send(request("/api/info", GUESSER).GET()).statusCode()).as("so is the management API").isEqualTo(200);
    }

    @Test
    void scimWrongTokens_countAsFailedCredentials() throws Exception {
        EntitlementIssuer issuer = new EntitlementIssuer();
        start(Map.of("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "3", "OMCP_TRUST_PROXY", "loopback",
                "OMCP_SCIM_TOKEN", SCIM_TOKEN, "OMCP_SCIM_STORE", dir.resolve("scim.json").toString(),
                "OMCP_ENTITLEMENT_TOKEN", issuer.token("scim", NOW.minusSeconds(60), NOW.plusSeconds(86_400)),
                "OMCP_ENTITLEMENT_PUBKEY", issuer.publicKeyPem()));
        for (int i = 0; i < 3; i++) {
            assertThat(scim(SCIM_TOKEN + i, GUESSER).statusCode()).as("guess %d", i + 1).isEqualTo(401);
        }

        assertThat(scim(SCIM_TOKEN, GUESSER).statusCode()).as("the right token, not checked").isEqualTo(429);
        assertThat(mcp(TOKEN, GUESSER).statusCode()).as("one count for every endpoint that takes a bearer").isEqualTo(429);
        assertThat(scim(SCIM_TOKEN, NEIGHBOUR).statusCode()).isEqualTo(200);
        clock.advance(Duration.ofMinutes(1));
        assertThat(scim(SCIM_TOKEN, GUESSER).statusCode()).isEqualTo(200);
    }

    @Test
    void aWebSocketClosedForItsCredential_countsAsAFailure_andTheUpgradeIsThenRefused() throws Exception {
        start(Map.of("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "2", "OMCP_TRUST_PROXY", "loopback"));
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Integer> closed = new CompletableFuture<>();
            websocket(WRONG, GUESSER, closed).join();
            assertThat(closed.get(10, TimeUnit.SECONDS)).as("closed on connect for the credential").isEqualTo(1008);
        }

        assertThatThrownBy(() -> websocket(TOKEN, GUESSER, new CompletableFuture<>()).join()).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode()).isEqualTo(429));
        assertThat(mcp(TOKEN, GUESSER).statusCode()).isEqualTo(429);
        WebSocket neighbour = websocket(TOKEN, NEIGHBOUR, new CompletableFuture<>()).join();
        neighbour.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void xForwardedForFromAPeerThatIsNotTrusted_isIgnored_soRotatingItDoesNotEscapeTheLimit() throws Exception {
        start(Map.of("OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "3"));
        for (int i = 0; i < 3; i++) {
            assertThat(mcp(WRONG, "192.0.2." + (i + 1)).statusCode()).isEqualTo(401);
        }

        assertThat(mcp(TOKEN, "192.0.2.200").statusCode()).as("every request is 127.0.0.1's").isEqualTo(429);
        assertThat(mcp(TOKEN, null).statusCode()).isEqualTo(429);
    }

    @Test
    void aFloodOfTheManagementApi_is429BeforeTheBodyIsRead_whileTheProbesAndOtherAddressesAreServed() throws Exception {
        start(Map.of("OMCP_API_RATE_PER_IP_PER_MIN", "5", "OMCP_TRUST_PROXY", "loopback"));
        for (int i = 0; i < 5; i++) {
            assertThat(send(request("/api/info", GUESSER).GET()).statusCode()).as("request %d", i + 1).isEqualTo(200);
        }
        clock.advance(Duration.ofSeconds(12));

        HttpResponse<String> refused = send(request("/api/info", GUESSER).GET());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("48");
        JsonNode body = MAPPER.readTree(refused.body());
        assertThat(body.path("code").asText()).isEqualTo("OMCP_ADDRESS_RATE_LIMIT");
        assertThat(body.path("retryAfterSeconds").asInt()).isEqualTo(48);
        assertThat(body.path("limit").asInt()).isEqualTo(5);
        assertThat(body.path("windowMs").asLong()).isEqualTo(60_000);
        HttpResponse<String> login = send(request("/api/auth/login", GUESSER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{not json")));
        assertThat(login.statusCode()).as("refused before the body is parsed").isEqualTo(429);
        assertThat(login.body()).contains("OMCP_ADDRESS_RATE_LIMIT");
        for (String probe : new String[] {"/healthz", "/readyz", "/metrics"}) {
            assertThat(send(request(probe, GUESSER).GET()).statusCode()).as(probe).isEqualTo(200);
        }
        assertThat(send(request("/api/info", NEIGHBOUR).GET()).statusCode()).isEqualTo(200);
        assertThat(mcp(TOKEN, GUESSER).statusCode()).as("the agent transport has its own limits").isEqualTo(200);
        assertThat(metrics()).contains("omcp_address_limit_refusals_total{limit=\"api-requests\"} 2.0");

        clock.advance(Duration.ofSeconds(48));
        assertThat(send(request("/api/info", GUESSER).GET()).statusCode()).isEqualTo(200);
    }

    @Test
    void theDefaultOf600ApiRequestsAMinute_appliesWhenNothingIsSet() throws Exception {
        start(Map.of("OMCP_API_RATE_PER_IP_PER_MIN", ""));
        for (int i = 0; i < 600; i++) {
            assertThat(send(request("/api/info", null).GET()).statusCode()).as("request %d", i + 1).isEqualTo(200);
        }
        assertThat(send(request("/api/info", null).GET()).statusCode()).isEqualTo(429);
    }

    @Test
    void limitsSetOff_limitNothing() throws Exception {
        start(Map.of("OMCP_API_RATE_PER_IP_PER_MIN", "off", "OMCP_AUTH_FAILURES_PER_IP_PER_MIN", "0"));
        for (int i = 0; i < 100; i++) {
            assertThat(mcp(WRONG, null).statusCode()).isEqualTo(401);
        }
        assertThat(mcp(TOKEN, null).statusCode()).isEqualTo(200);
        assertThat(metrics()).contains("omcp_address_limit_refusals_total{limit=\"credential-failures\"} 0.0")
                .contains("omcp_address_limit_refusals_total{limit=\"api-requests\"} 0.0");
    }

    private HttpResponse<String> mcp(String token, String forwardedFor) {
        HttpRequest.Builder request = request("/mcp", forwardedFor).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request);
    }

    private HttpResponse<String> scim(String token, String forwardedFor) {
        return send(request("/scim/v2/Users", forwardedFor).header("Authorization", "Bearer " + token).GET());
    }

    private HttpRequest.Builder request(String path, String forwardedFor) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.base() + path)).timeout(Duration.ofSeconds(10));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return request;
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String metrics() {
        return send(request("/metrics", null).GET()).body();
    }

    private CompletableFuture<WebSocket> websocket(String token, String forwardedFor, CompletableFuture<Integer> closed) {
        return CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5)).header("Authorization", "Bearer " + token)
                .header("X-Forwarded-For", forwardedFor)
                .buildAsync(URI.create("ws://127.0.0.1:" + gateway.port() + "/mcp/ws"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }
                });
    }

    /** The whole answer to a request written on a socket: the JDK client cannot send an upgrade as a plain request. */
    private String raw(String request) {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
