package dev.omcp.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.NoRevocations;
import dev.omcp.app.support.NoSessions;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.LoginRoutes;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.connectors.ConnectorRoutes;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.server.GatewayHttpServer;
import dev.omcp.adapters.http.server.HttpServerSettings;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.sources.ManageSources;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A body sent one byte at a time (or not at all after the headers) is given up at its deadline with
 * 408 and a closed connection, on {@code POST /mcp}, the unauthenticated login and the bundle upload;
 * the server goes on answering honest requests. The deadline is made short (2 s grace) so the tests
 * are quick; the bound asserted is the deadline plus 15 s, for a loaded CI machine. Before the
 * deadline existed, a trickled body held its connection for as long as the client liked.
 */
class SlowRequestBodyIT {
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final Duration MARGIN = Duration.ofSeconds(15);
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"slow-body-it\",\"version\":\"1\"}}}";

    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private GatewayHttpServer server;

    @BeforeEach
    void start() {
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        PasswordLogin login = new PasswordLogin() {
            @Override
            public LoginResult login(String username, String password, String clientIp) {
                return new LoginResult.InvalidCredentials();
            }

            @Override
            public boolean isKnownUser(String username) {
                return true;
            }
        };
        LoginRoutes loginRoutes = new LoginRoutes(AuthMode.BASIC, Optional.of(login), new NoSessions(), new SessionCookies(secret),
                new CsrfProtection(true, secret, new SecureRandom()), new NoRevocations());
        ConnectorRoutes connectorRoutes = new ConnectorRoutes(uploadsEnabled(), unused(ManageSources.class), unused(AccessPolicy.class));
        Gateway gateway = Gateway.builder().version("test").build();
        server = GatewayHttpServer.builder()
                .settings(HttpServerSettings.loopback(0).withBodyDeadline(GRACE, 16 * 1024))
                .mcp(gateway.mcp())
                .agentAuthentication(gateway.agentAuthentication())
                .description(gateway.description())
                .module(loginRoutes::register)
                .module(connectorRoutes)
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aTrickledMcpMessage_isAnswered408AndClosed_andTheNextMessageIsServed() throws Exception {
        String answer = trickle("/mcp", "application/json", "Accept: application/json, text/event-stream\r\n", 1000);
        assertThat(answer).startsWith("HTTP/1.1 408").containsIgnoringCase("connection: close").contains("\"jsonrpc\":\"2.0\"")
                .contains("did not arrive in time");

        HttpResponse<String> honest = client.send(HttpRequest.newBuilder(uri("/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(honest.statusCode()).as(honest.body()).isEqualTo(200);
    }

    @Test
    void aLoginWhoseBodyNeverComes_isAnswered408WithTheApiErrorShape_andTheNextLoginIsServed() throws Exception {
        String answer = silent("/api/auth/login", "application/json", 200);
        assertThat(answer).startsWith("HTTP/1.1 408").containsIgnoringCase("connection: close").contains("\"code\":\"OMCP_BODY_TIMEOUT\"");

        HttpResponse<String> honest = client.send(HttpRequest.newBuilder(uri("/api/auth/login"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"sam\",\"password\":\"whatever\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(honest.statusCode()).as(honest.body()).isEqualTo(401);
    }

    @Test
    void aTrickledLogin_isAnswered408_althoughEveryByteComesWellWithinTheIdleTimeout() throws Exception {
        String answer = trickle("/api/auth/login", "application/json", "", 200);
        assertThat(answer).startsWith("HTTP/1.1 408").contains("\"code\":\"OMCP_BODY_TIMEOUT\"");
    }

    @Test
    void aTrickledBundleUpload_isAnswered408_andFreesTheUploadForTheNextOne() throws Exception {
        String answer = trickle("/api/connectors/upload", "application/octet-stream", "", 50_000);
        assertThat(answer).startsWith("HTTP/1.1 408").contains("\"code\":\"OMCP_BODY_TIMEOUT\"");

        // the one upload slot is free again: an empty bundle reaches the route's own check, not OMCP_UPLOAD_BUSY
        HttpResponse<String> next = client.send(HttpRequest.newBuilder(uri("/api/connectors/upload"))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(next.statusCode()).as(next.body()).isEqualTo(400);
        assertThat(next.body()).contains("OMCP_INVALID_BUNDLE");
    }

    /** Sends the headers and one byte of the body, then nothing; returns what the server answered. */
    private String silent(String path, String contentType, int declaredLength) throws Exception {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(headers(path, contentType, "", declaredLength));
            out.write('{');
            out.flush();
            return answerWithinDeadline(socket);
        }
    }

    /**
     * Sends the headers, then one body byte every 200 ms (far within Jetty's 30 s idle timeout) until
     * the server answers; returns what it answered.
     */
    private String trickle(String path, String contentType, String extraHeaders, int declaredLength) throws Exception {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(headers(path, contentType, extraHeaders, declaredLength));
            out.flush();
            AtomicBoolean answered = new AtomicBoolean();
            Thread trickler = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < declaredLength - 1 && !answered.get(); i++) {
                        out.write(' ');
                        out.flush();
                        Thread.sleep(200);
                    }
                } catch (IOException | InterruptedException e) {
                    // the server closed the connection: what the test waits for
                }
            });
            try {
                return answerWithinDeadline(socket, answered);
            } finally {
                answered.set(true);
                trickler.interrupt();
                trickler.join();
            }
        }
    }

    private String answerWithinDeadline(Socket socket) throws IOException {
        return answerWithinDeadline(socket, new AtomicBoolean());
    }

    /** Reads until the server closes the connection; fails when that takes longer than the deadline plus the margin. */
    private String answerWithinDeadline(Socket socket, AtomicBoolean answered) throws IOException {
        long bound = GRACE.plus(MARGIN).toMillis();
        socket.setSoTimeout((int) bound);
        long start = System.nanoTime();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                answered.set(true);
                received.write(buffer, 0, n);
                assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).as("still open").isLessThan(bound);
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed within " + bound + " ms; received: " + received, e);
        } catch (java.net.SocketException e) {
            // a reset after the answer (the trickle's next byte reached a closed socket): the answer was read
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start).toMillis()).isLessThan(bound);
        return received.toString(StandardCharsets.UTF_8);
    }

    private Socket open() throws IOException {
        return new Socket("127.0.0.1", server.port());
    }

    private byte[] headers(String path, String contentType, String extraHeaders, int declaredLength) {
        return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + declaredLength + "\r\n" + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** Uploads are enabled and trusted, so a body is read; nothing else is expected of it here. */
    private static ManageConnectors uploadsEnabled() {
        return (ManageConnectors) Proxy.newProxyInstance(ManageConnectors.class.getClassLoader(), new Class<?>[] {ManageConnectors.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "installRefusal" -> Optional.empty();
                    case "installEnabled" -> true;
                    default -> throw new UnsupportedOperationException("not used by these tests: " + method.getName());
                });
    }

    private static <T> T unused(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            throw new UnsupportedOperationException("not used by these tests: " + method.getName());
        }));
    }
}
