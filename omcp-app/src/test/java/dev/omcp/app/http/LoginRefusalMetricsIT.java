package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.NoRevocations;
import dev.omcp.app.support.NoSessions;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.LoginRoutes;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.SessionClaims;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The three 429s of {@code POST /api/auth/login} share route and status, so {@code /metrics} tells
 * them apart by {@code omcp_login_refusals_total{code}}: proven through the real server and its
 * request logger. The login decisions are scripted: a full per-address table (100 000 addresses)
 * cannot be produced on demand.
 */
class LoginRefusalMetricsIT {
    private final AtomicReference<LoginResult> next = new AtomicReference<>();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private GatewayHttpServer server;

    @BeforeEach
    void start() {
        PasswordLogin login = new PasswordLogin() {
            @Override
            public LoginResult login(String username, String password, String clientIp) {
                return next.get();
            }

            @Override
            public boolean isKnownUser(String username) {
                return true;
            }
        };
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        LoginRoutes routes = new LoginRoutes(AuthMode.BASIC, Optional.of(login), new NoSessions(), new SessionCookies(secret),
                new CsrfProtection(true, secret, new SecureRandom()), new NoRevocations());
        Gateway gateway = Gateway.builder().version("test").build();
        server = GatewayHttpServer.builder()
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .module(routes::register)
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void eachLoginRefusal_isCountedUnderItsOwnCode_whileTheHttpCounterLumpsThe429sTogether() throws Exception {
        String before = metrics();
        // spec 7.4: all three are answered 429 on one route
        assertThat(before).as("every code is exported from 0, before any refusal")
                .contains("omcp_login_refusals_total{code=\"OMCP_LOGIN_ADDRESS_TABLE_FULL\"} 0.0")
                .contains("omcp_login_refusals_total{code=\"OMCP_LOGIN_RATE_LIMIT\"} 0.0")
                .contains("omcp_login_refusals_total{code=\"OMCP_LOGIN_LOCKED\"} 0.0")
                .contains("omcp_login_refusals_total{code=\"OMCP_SESSION_TOO_LARGE\"} 0.0");

        next.set(new LoginResult.AddressTableFull(Duration.ofSeconds(60), 100_000));
        assertThat(login()).isEqualTo(429);
        assertThat(login()).isEqualTo(429);
        next.set(new LoginResult.TooManyAttempts(Duration.ofSeconds(30)));
        assertThat(login()).isEqualTo(429);
        next.set(new LoginResult.AccountLocked(Duration.ofSeconds(60)));
        assertThat(login()).isEqualTo(429);
        next.set(new LoginResult.InvalidCredentials());
        assertThat(login()).isEqualTo(401);
        // the right password, but more roles than a session cookie carries: 500 OMCP_SESSION_TOO_LARGE
        next.set(new LoginResult.LoggedIn(new SessionClaims("sam", "Sam", IntStream.range(0, SessionCookies.MAX_ROLES + 1)
                .mapToObj(i -> "role-" + i).toList(), 1_700_000_000L, 1_700_043_200L, "sid-1234567890", "")));
        assertThat(login()).isEqualTo(500);

        List<String> expected = List.of(
                "omcp_login_refusals_total{code=\"OMCP_LOGIN_ADDRESS_TABLE_FULL\"} 2.0",
                "omcp_login_refusals_total{code=\"OMCP_LOGIN_RATE_LIMIT\"} 1.0",
                "omcp_login_refusals_total{code=\"OMCP_LOGIN_LOCKED\"} 1.0",
                "omcp_login_refusals_total{code=\"OMCP_INVALID_CREDENTIALS\"} 1.0",
                "omcp_login_refusals_total{code=\"OMCP_LOGIN_BUSY\"} 0.0",
                "omcp_login_refusals_total{code=\"OMCP_SESSION_TOO_LARGE\"} 1.0",
                "omcp_http_requests_total{method=\"POST\",route=\"/api/auth/login\",status=\"429\"} 4.0");
        String after = metricsOnce(expected);
        assertThat(after).contains(expected);
    }

    private int login() throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/api/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"sam\",\"password\":\"whatever\"}")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private String metrics() throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The request logger counts a request after its answer is sent: poll briefly for the lines rather than race it. */
    private String metricsOnce(List<String> lines) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String text = metrics();
        while (!lines.stream().allMatch(text::contains) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            text = metrics();
        }
        return text;
    }
}
