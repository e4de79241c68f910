package dev.omcp.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.support.RunningGateway;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import dev.omcp.testkit.prometheus.SyntheticMetrics;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus-backed tools through {@code /mcp} against a real Prometheus on a backfilled TSDB
 * (constant rates per service, so the exact answers are known).
 */
@Tag("backend")
class PrometheusToolsIT {
    private static PrometheusFixture prometheus;
    private static RunningGateway gateway;
    private static McpHttpClient client;

    @BeforeAll
    static void start() throws Exception {
        prometheus = PrometheusFixture.start(Duration.ofHours(3));
        gateway = RunningGateway.start(Map.of("PROMETHEUS_URL", prometheus.url(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"));
        client = new McpHttpClient(gateway.baseUrl());
        client.initialize();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    private static JsonObject tool(String name, String arguments) {
        return client.tool(name, arguments);
    }

    private static SyntheticMetrics.Service service(String name) {
        return SyntheticMetrics.SERVICES.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void queryMetrics_readsTheExactRateAndShowsThePromqlThatRan() {
        JsonObject result = tool("query_metrics", "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"30m\"}");
        // spec 4.4
        assertThat(result.getString("resolvedLabel")).isEqualTo("job");
        assertThat(result.getString("resolvedSeries")).contains("rate(process_cpu_seconds_total{job=\"api\"}");
        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        // the fixture's samples end up to a minute before now, where Prometheus extrapolates rates over fewer
        // samples and reads them lower; inside the data the rate is exact
        assertThat(series.getJsonNumber("max").doubleValue()).isCloseTo(service("api").cpuCoresPerSecond(), within(1e-3));
        assertThat(series.getJsonNumber("avg").doubleValue()).isCloseTo(service("api").cpuCoresPerSecond(), withinPercentage(3));
        assertThat(result.getJsonArray("sources").getString(0)).isEqualTo("prometheus");
        assertThat(result.toString()).doesNotContain(prometheus.url());
    }

    @Test
    void queryMetrics_findsAServiceWhoseNameHasASlashAndOneCarriedByAnotherLabel() {
        JsonObject search = tool("query_metrics", "{\"service\":\"team/search\",\"metric\":\"error_rate\",\"duration\":\"30m\"}");
        assertThat(search.getJsonArray("series").getJsonObject(0).getJsonNumber("last").doubleValue())
                .isCloseTo(service("team/search").errorRatio(), within(1e-3));
        JsonObject billing = tool("query_metrics", "{\"service\":\"billing\",\"metric\":\"memory\",\"duration\":\"30m\"}");
        assertThat(billing.getString("resolvedLabel")).isEqualTo("app");
        assertThat(billing.getJsonArray("series").getJsonObject(0).getJsonNumber("last").doubleValue())
                .isCloseTo((double) service("billing").memoryBytes(), withinPercentage(0.1)); // four significant digits
    }

    @Test
    void serviceHealth_findsTheServiceThatFailsAFifthOfItsRequestsCritical() {
        JsonObject checkout = tool("get_service_health", "{\"service\":\"checkout\"}");
        assertThat(checkout.getString("status")).isEqualTo("critical");
        JsonObject errorRate = checkout.getJsonArray("signals").stream().map(JsonValue::asJsonObject)
                .filter(s -> s.getString("signal").equals("error_rate")).findFirst().orElseThrow();
        assertThat(errorRate.getJsonNumber("value").doubleValue()).isCloseTo(service("checkout").errorRatio(), within(1e-3));
        // checkout's containers have no limits: CPU and memory utilization are missing with the reason, not zero
        assertThat(checkout.getJsonArray("missing").toString()).contains("cpu", "memory", "container_spec_*");

        JsonObject api = tool("get_service_health", "{\"service\":\"api\"}");
        assertThat(api.getString("status")).isEqualTo("healthy");
        assertThat(api.getJsonArray("anomalies")).isEmpty();
    }

    @Test
    void detectAnomalies_findsNothingInSteadyTraffic() {
        JsonObject result = tool("detect_anomalies", "{}");
        assertThat(result.getJsonObject("services").getInt("analysed")).isEqualTo(SyntheticMetrics.SERVICES.size());
        assertThat(result.getJsonObject("summary").getInt("anomalous")).isZero();
        assertThat(result.getJsonObject("summary").getInt("normal")).isGreaterThan(0);
        assertThat(result.getJsonArray("rootCauses")).isEmpty();
        assertThat(result.getString("note")).startsWith("No anomaly at sensitivity medium");
        assertThat(result.getString("rankingNote")).contains("no topology source is configured");
    }
}
