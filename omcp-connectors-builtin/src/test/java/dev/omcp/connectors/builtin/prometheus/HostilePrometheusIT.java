package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus connector against a server that answers valid JSON of the wrong shape, or JSON
 * nested deeper than any reader of the gateway reads: every such answer is a failure of the kind
 * {@code BAD_RESPONSE} (or a health that is down), never an unexpected exception, which the
 * gateway treats as a connector bug.
 */
class HostilePrometheusIT {
    private static final String DEEP = "{\"status\":\"success\",\"data\":" + "[".repeat(3000) + "]".repeat(3000) + "}";
    private static final Map<String, String> ANSWERS = new ConcurrentHashMap<>();
    private static HttpServer server;
    private static PrometheusConnector connector;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", ex -> {
            String answer = ANSWERS.getOrDefault(ex.getRequestURI().getPath(), "{\"status\":\"success\",\"data\":[]}");
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        SourceConfig source = new SourceConfig("prom", "prometheus", "http://127.0.0.1:" + server.getAddress().getPort(), "",
                JsonObject.EMPTY_JSON_OBJECT);
        connector = (PrometheusConnector) new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ZERO).create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().get();
    }

    @AfterAll
    static void stop() throws IOException {
        connector.close();
        server.stop(0);
    }

    @BeforeEach
    void reset() {
        ANSWERS.clear();
    }

    @Test
    void buildInfoWhoseDataIsNoObject_isStillAHealthCheckThatAnswers() {
        ANSWERS.put("/api/v1/status/buildinfo", "{\"status\":\"success\",\"data\":5}");
        Health health = connector.health();
        assertThat(health.up()).isTrue();
        assertThat(health.message()).isEqualTo("Prometheus (version not reported)");
    }

    @Test
    void buildInfoNestedTooDeeply_fallsBackToTheReadinessEndpointAsAnyUnreadableAnswerDoes() {
        ANSWERS.put("/api/v1/status/buildinfo", DEEP);
        assertThat(connector.health().message()).isEqualTo("Prometheus-compatible server is ready");
    }

    @Test
    void labelValuesNestedTooDeeply_areABadResponse() {
        ANSWERS.put("/api/v1/label/job/values", DEEP);
        assertThatThrownBy(() -> connector.listServices())
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE));
    }
}
