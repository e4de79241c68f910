package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TlsMaterial;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector context's client against real loopback HTTP and HTTPS servers: authentication
 * reaches the backend (and only the backend), TLS material really configures the client,
 * redirects are not followed, timeouts apply, and refused addresses are never connected to.
 */
class GuardedTransportIT {
    private static final List<String> SEEN_AUTH = new CopyOnWriteArrayList<>();
    private static final List<String> SEEN_CLIENT_CERTS = new CopyOnWriteArrayList<>();
    private static final List<String> SEEN_UPGRADES = new CopyOnWriteArrayList<>();
    private static final CountDownLatch RELEASE_SLOW = new CountDownLatch(1);
    private static HttpServer plain;
    private static HttpServer other;
    private static HttpsServer tls;
    private static HttpsServer mutualTls;
    private static TestPki pki;

    @BeforeAll
    static void start() throws Exception {
        plain = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        plain.createContext("/echo", ex -> {
            SEEN_AUTH.add(ex.getRequestHeaders().getFirst("Authorization") + "|" + ex.getRequestHeaders().getFirst("X-Scope-OrgID"));
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        plain.createContext("/upgrade", ex -> {
            SEEN_UPGRADES.add(ex.getRequestHeaders().getFirst("Upgrade") + "|" + ex.getRequestHeaders().getFirst("Connection")
                    + "|" + ex.getProtocol());
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        plain.createContext("/redirect", ex -> {
            ex.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data/");
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        plain.createContext("/slow", ex -> {
            try {
                RELEASE_SLOW.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        plain.start();
        other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        other.createContext("/echo", ex -> {
            SEEN_AUTH.add("other:" + ex.getRequestHeaders().getFirst("Authorization"));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        other.start();

        pki = new TestPki();
        TestPki.Issued server = pki.server("127.0.0.1");
        tls = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tls.setHttpsConfigurator(new HttpsConfigurator(pki.serverContext(server)));
        tls.createContext("/echo", ex -> {
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        tls.start();
        mutualTls = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        mutualTls.setHttpsConfigurator(new HttpsConfigurator(pki.serverContext(server)) {
            @Override
            public void configure(HttpsParameters params) {
                var parameters = getSSLContext().getDefaultSSLParameters();
                parameters.setNeedClientAuth(true);
                params.setSSLParameters(parameters);
            }
        });
        mutualTls.createContext("/echo", ex -> {
            try {
                SSLSession session = ((com.sun.net.httpserver.HttpsExchange) ex).getSSLSession();
                SEEN_CLIENT_CERTS.add(((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName());
            } catch (SSLPeerUnverifiedException e) {
                SEEN_CLIENT_CERTS.add("none");
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        mutualTls.start();
    }

    @AfterAll
    static void stop() {
        RELEASE_SLOW.countDown();
        for (HttpServer s : new HttpServer[] {plain, other, tls, mutualTls}) {
            if (s != null) {
                s.stop(0);
            }
        }
    }

    private static String url(HttpServer server, String scheme) {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    private static BackendHttp http(String url, JsonObject settings) throws ConnectorException {
        return http(url, settings, Duration.ofSeconds(10));
    }

    private static BackendHttp http(String url, JsonObject settings, Duration timeout) throws ConnectorException {
        SourceConfig source = new SourceConfig("t", "prometheus", url, "", settings);
        ConnectorContext context = TestContexts.contexts(Clock.systemUTC(), timeout).contextFor(source);
        return new BackendHttp(context.httpClient(), url, context.requestTimeout(), "Backend", context.answerBudget());
    }

    private static JsonObject auth(String type, String... kv) {
        JsonObjectBuilder auth = Json.createObjectBuilder().add("type", type);
        for (int i = 0; i < kv.length; i += 2) {
            auth.add(kv[i], kv[i + 1]);
        }
        return Json.createObjectBuilder().add("auth", auth).build();
    }

    private static JsonObject tlsSettings(String... kv) {
        JsonObjectBuilder t = Json.createObjectBuilder();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i].equals("insecureSkipVerify")) {
                t.add(kv[i], Boolean.parseBoolean(kv[i + 1]));
            } else {
                t.add(kv[i], kv[i + 1]);
            }
        }
        return Json.createObjectBuilder().add("tls", t).build();
    }

    @Test
    void bearerAndBasicCredentialsReachTheBackend() throws Exception {
        SEEN_AUTH.clear();
        http(url(plain, "http"), auth("bearer", "token", "t0ken-123")).getJson("/echo", Map.of());
        http(url(plain, "http"), auth("basic", "username", "ops", "password", "pa:ss")).getJson("/echo", Map.of());
        JsonObject headers = Json.createObjectBuilder().add("headers", Json.createObjectBuilder().add("X-Scope-OrgID", "team-a")).build();
        http(url(plain, "http"), headers).getJson("/echo", Map.of());
        assertThat(SEEN_AUTH).containsExactly("Bearer t0ken-123|null", "Basic b3BzOnBhOnNz|null", "null|team-a");
    }

    @Test
    void plainHttpSourcesSpeakHttp11WithoutAskingEveryRequestForAnUpgrade() throws Exception {
        // the JDK client's default (HTTP/2) sends an h2c upgrade request on every plain-HTTP call,
        // which Prometheus and Loki never accept
        SEEN_UPGRADES.clear();
        BackendHttp source = http(url(plain, "http"), JsonObject.EMPTY_JSON_OBJECT);
        source.getJson("/upgrade", Map.of());
        source.getJson("/upgrade", Map.of());
        assertThat(SEEN_UPGRADES).containsExactly("null|null|HTTP/1.1", "null|null|HTTP/1.1");
    }

    @Test
    void manyConcurrentCallsOnOneSourceAllComplete() throws Exception {
        // the client completes responses on its selector thread (no executor hop); nothing may block there
        BackendHttp source = http(url(plain, "http"), JsonObject.EMPTY_JSON_OBJECT);
        List<java.util.concurrent.Future<JsonObject>> calls = new java.util.ArrayList<>();
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 64; i++) {
                calls.add(executor.submit(() -> source.getJson("/upgrade", Map.of())));
            }
            for (var call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS).getBoolean("ok")).isTrue();
            }
        }
    }

    @Test
    void credentialsAreNeverSentToAnotherOrigin() throws Exception {
        SEEN_AUTH.clear();
        BackendHttp source = http(url(plain, "http"), auth("bearer", "token", "t0ken-123"));
        source.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url(other, "http") + "/echo")).build(),
                dev.omcp.sdk.memory.AnswerBudget.Reading.TOKENS, body -> body);
        assertThat(SEEN_AUTH).containsExactly("other:null");
    }

    @Test
    void redirectsAreNotFollowed() {
        assertThatThrownBy(() -> http(url(plain, "http"), JsonObject.EMPTY_JSON_OBJECT).getJson("/redirect", Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
                    assertThat(e.getMessage()).contains("redirect").doesNotContain("169.254");
                });
    }

    @Test
    void theRequestTimeoutApplies() {
        assertThatThrownBy(() -> http(url(plain, "http"), JsonObject.EMPTY_JSON_OBJECT, Duration.ofMillis(500)).getText("/slow"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
    }

    @Test
    void aRefusedLiteralAddressIsNeverConnectedTo() throws Exception {
        SEEN_AUTH.clear();
        var strict = new TestContexts.LoopbackPolicy() {
            @Override
            public EgressVerdict checkAddress(byte[] address) {
                return EgressVerdict.refuse("a loopback address");
            }
        };
        BackendHostGuard.install(strict);
        try {
            SourceConfig source = new SourceConfig("t", "prometheus", url(plain, "http"), "", JsonObject.EMPTY_JSON_OBJECT);
            var context = new SourceConnectorContexts(strict, Duration.ofSeconds(1), Duration.ofSeconds(1), Clock.systemUTC())
                    .contextFor(source);
            BackendHttp http = new BackendHttp(context.httpClient(), url(plain, "http"), Duration.ofSeconds(1), "Backend", context.answerBudget());
            assertThatThrownBy(() -> http.getJson("/echo", Map.of()))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED);
                        assertThat(e.getMessage()).contains("loopback");
                    });
            // and by name: the JEP 418 resolver refuses what "localhost" resolves to
            String byName = "http://localhost:" + plain.getAddress().getPort();
            var named = new SourceConnectorContexts(strict, Duration.ofSeconds(1), Duration.ofSeconds(1), Clock.systemUTC())
                    .contextFor(new SourceConfig("n", "prometheus", byName, "", JsonObject.EMPTY_JSON_OBJECT));
            assertThatThrownBy(() -> new BackendHttp(named.httpClient(), byName, Duration.ofSeconds(1), "Backend", named.answerBudget()).getJson("/echo", Map.of()))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED));
            assertThat(SEEN_AUTH).isEmpty();
        } finally {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy());
        }
    }

    @Test
    void withoutTheCaTheHandshakeFailsAndWithItTheCallSucceeds() throws Exception {
        assertThatThrownBy(() -> http(url(tls, "https"), JsonObject.EMPTY_JSON_OBJECT).getText("/echo"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("TLS handshake"));
        assertThat(http(url(tls, "https"), tlsSettings("ca", pki.ca.certificatePem())).getText("/echo")).isEmpty();
    }

    @Test
    void caFileIsReadFromDisk(@TempDir Path dir) throws Exception {
        Path ca = dir.resolve("ca.pem");
        Files.writeString(ca, pki.ca.certificatePem());
        assertThat(http(url(tls, "https"), tlsSettings("caFile", ca.toString())).getText("/echo")).isEmpty();
        assertThatThrownBy(() -> http(url(tls, "https"), tlsSettings("caFile", dir.resolve("missing.pem").toString())))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("tls.caFile").doesNotContain(dir.toString()));
    }

    @Test
    void aCaFileNamingAnEndlessDevice_isRefusedAtOnce_notReadUntilTheHeapIsGone(@TempDir Path dir) throws Exception {
        Path zero = Files.createSymbolicLink(dir.resolve("ca.pem"), Path.of("/dev/zero"));
        assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> http(url(tls, "https"), tlsSettings("caFile", zero.toString()))))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("tls.caFile names a file that is not a regular file (a FIFO, a device or a socket); it must be a PEM file"));
    }

    @Test
    void skipVerifyTrustsAnyCertificateForThisClientOnly() throws Exception {
        assertThat(http(url(tls, "https"), tlsSettings("insecureSkipVerify", "true")).getText("/echo")).isEmpty();
        // a client of another source is not affected
        assertThatThrownBy(() -> http(url(tls, "https"), JsonObject.EMPTY_JSON_OBJECT).getText("/echo"))
                .isInstanceOf(ConnectorException.class);
    }

    @Test
    void clientCertificatesInEveryKeyFormatReachTheServer() throws Exception {
        SEEN_CLIENT_CERTS.clear();
        assertThatThrownBy(() -> http(url(mutualTls, "https"), tlsSettings("ca", pki.ca.certificatePem())).getText("/echo"))
                .isInstanceOf(ConnectorException.class);
        TestPki.Issued rsa = pki.client("rsa-client", false);
        TestPki.Issued ec = pki.client("ec-client", true);
        for (String[] variant : new String[][] {
            {rsa.certificatePem(), rsa.keyPkcs8Pem()},
            {rsa.certificatePem(), rsa.keyTraditionalPem()},
            {ec.certificatePem(), ec.keyPkcs8Pem()},
            {ec.certificatePem(), ec.keyTraditionalPem()}}) {
            http(url(mutualTls, "https"), tlsSettings("ca", pki.ca.certificatePem(), "cert", variant[0], "key", variant[1])).getText("/echo");
        }
        assertThat(SEEN_CLIENT_CERTS).containsExactly("CN=rsa-client", "CN=rsa-client", "CN=ec-client", "CN=ec-client");
    }

    @Test
    void connectorSuppliedTlsMaterialBuildsAGuardedClient() throws Exception {
        SourceConfig source = new SourceConfig("k", "kubernetes", "", "", JsonObject.EMPTY_JSON_OBJECT);
        ConnectorContext context = TestContexts.contexts(Clock.systemUTC()).contextFor(source);
        var client = context.httpClient(new TlsMaterial(Optional.of(pki.ca.certificatePem()), Optional.empty(), Optional.empty(), false));
        assertThat(new BackendHttp(client, url(tls, "https"), Duration.ofSeconds(2), "Kubernetes", context.answerBudget()).getText("/echo")).isEmpty();
    }

    @Test
    void unusableTlsSettingsNameTheSettingAndNeverTheKey() {
        assertThatThrownBy(() -> http(url(tls, "https"), tlsSettings("ca", "not a pem")))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("tls.ca"));
        String secretLookingKey = "-----BEGIN PRIVATE KEY-----\nQUJDREVGR0hJSktMTU5PUA==\n-----END PRIVATE KEY-----\n";
        assertThatThrownBy(() -> http(url(tls, "https"), tlsSettings("cert", pki.ca.certificatePem(), "key", secretLookingKey)))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("tls.key")
                        .doesNotContain("QUJDREVGR0hJSktMTU5PUA"));
        assertThatThrownBy(() -> http(url(tls, "https"), tlsSettings("cert", pki.ca.certificatePem())))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("go together"));
        assertThatThrownBy(() -> http(url(plain, "http"), auth("digest")))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("none, basic or bearer"));
        assertThatThrownBy(() -> http(url(plain, "http"), Json.createObjectBuilder()
                .add("headers", Json.createObjectBuilder().add("Host", "evil")).build()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("headers.Host"));
    }
}
