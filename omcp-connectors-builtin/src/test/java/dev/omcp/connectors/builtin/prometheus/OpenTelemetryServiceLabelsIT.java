package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Service labels with OpenTelemetry-style names ({@code service.name}), which Prometheus 3 stores
 * as they are when it promotes resource attributes, against a loopback server answering as
 * Prometheus 3 does: the label-values API is asked by the escaped name ({@code U__service_2e_name},
 * the form a 2.x server reads as a name it has no values of instead of refusing it), and PromQL
 * writes the name quoted. {@code PrometheusConnectorIT} runs the 2.x side against a real server.
 */
class OpenTelemetryServiceLabelsIT {
    private static final TimeRange HOUR = TimeRange.ending(Instant.parse("2026-01-15T12:00:00Z"), Duration.ofHours(1));
    private static final String EMPTY = "{\"status\":\"success\",\"data\":[]}";

    private HttpServer server;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    /** Every request: its path, and its decoded query or form. */
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
        answers.put("/api/v1/label/U__service_2e_name/values", "{\"status\":\"success\",\"data\":[\"checkout\"]}");
        answers.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"node-exporter\"]}");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String query = exchange.getRequestURI().getRawQuery();
            requests.add(path + " " + URLDecoder.decode(form.isEmpty() && query != null ? query : form, StandardCharsets.UTF_8));
            String matrix = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";
            byte[] body = answers.getOrDefault(path, path.equals("/api/v1/query_range") ? matrix : EMPTY).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private PrometheusConnector connector(List<String> gatewayLabels, JsonObject settings) throws ConnectorException {
        SourceConfig source = new SourceConfig("prom", "prometheus", "http://127.0.0.1:" + server.getAddress().getPort(), "", settings);
        return (PrometheusConnector) new PrometheusConnectorFactory(gatewayLabels, Duration.ofMinutes(1))
                .create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().join();
    }

    @Test
    void aDottedServiceLabel_findsTheService_andSelectsItQuoted() throws Exception {
        try (PrometheusConnector connector = connector(List.of("service.name", "job"), JsonObject.EMPTY_JSON_OBJECT)) {
            MetricResult result = connector.queryMetrics(new MetricQuery("checkout", "http_requests_total", HOUR, Duration.ofMinutes(1),
                    List.of(), Map.of()));
            assertThat(result.resolvedLabel()).isEqualTo("service.name");
            assertThat(result.resolvedSeries()).isEqualTo("http_requests_total{\"service.name\"=\"checkout\"}");
            assertThat(requests).anyMatch(r -> r.startsWith("/api/v1/label/U__service_2e_name/values "))
                    .noneMatch(r -> r.startsWith("/api/v1/label/service.name"));
            assertThat(requests).filteredOn(r -> r.startsWith("/api/v1/query_range"))
                    .singleElement().asString().contains("query=http_requests_total{\"service.name\"=\"checkout\"}");

            MetricResult curated = connector.queryMetrics(new MetricQuery("checkout", "memory", HOUR, Duration.ofMinutes(1),
                    List.of(), Map.of()));
            assertThat(curated.resolvedSeries()).contains("process_resident_memory_bytes{\"service.name\"=\"checkout\"}");

            connector.discoverMetrics("checkout", 10);
            assertThat(requests).anySatisfy(r -> assertThat(r).startsWith("/api/v1/label/__name__/values")
                    .contains("match[]={\"service.name\"=\"checkout\"}"));
        }
    }

    @Test
    void aDottedServiceLabel_namesServicesFromTheTargets_andFromItsValues() throws Exception {
        answers.put("/api/v1/targets", "{\"status\":\"success\",\"data\":{\"activeTargets\":[{\"labels\":{\"service.name\":\"cart\","
                + "\"job\":\"otel\"},\"health\":\"up\"}]}}");
        JsonObject settings = Jsonp.object().add("serviceLabels", Jsonp.array().add("service.name").add("job")).build();
        try (PrometheusConnector connector = connector(List.of("job"), settings)) {
            List<ServiceInfo> services = connector.listServices();
            assertThat(services).extracting(ServiceInfo::name).containsExactly("cart", "checkout", "node-exporter");
            assertThat(services.get(0).attributes()).containsEntry("label", "service.name").containsEntry("discoveredBy", "targets");
            assertThat(services.get(1).attributes()).containsEntry("label", "service.name").containsEntry("discoveredBy", "labels");
        }
    }

    @Test
    void aServiceLabelThatIsNoLabelName_isRefusedAtCreation_sayingTheAllowedForm() {
        for (String bad : new String[] {"service name", "sérvice", "a\"b", "{x}"}) {
            assertThatThrownBy(() -> connector(List.of("job"), Jsonp.object().add("serviceLabels", bad).build())).as(bad)
                    .isInstanceOf(CompletionException.class).cause().isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("serviceLabels entry").hasMessageContaining("ASCII letters, digits, '_', '.', '-' and '/'");
            assertThatThrownBy(() -> connector(List.of("job", bad), JsonObject.EMPTY_JSON_OBJECT)).as("gateway's " + bad)
                    .cause().hasMessageContaining("service label '");
        }
    }
}
