package dev.omcp.testkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.demo.prometheus.FakePrometheusServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated Prometheus answers PromQL over the shop's history the way a real one would. */
class FakePrometheusServerIT {
    private static final Instant NOW = Instant.parse("2026-11-22T14:00:00Z");
    private static SimulatedSystem system;
    private static FakePrometheusServer prometheus;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        system = SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(6), Duration.ofMinutes(25));
        prometheus = FakePrometheusServer.start(system);
    }

    @AfterAll
    static void stop() {
        prometheus.close();
    }

    private static JsonObject get(String pathAndQuery) throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(prometheus.baseUrl() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    private static double instant(String promql) throws Exception {
        JsonObject body = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertThat(body.getString("status")).as(body.toString()).isEqualTo("success");
        JsonArray result = body.getJsonObject("data").getJsonArray("result");
        assertThat(result).as(promql).hasSize(1);
        return Double.parseDouble(result.getJsonObject(0).getJsonArray("value").getString(1));
    }

    @Test
    void requestRate_followsTheShopsDailyCurve() throws Exception {
        double rate = instant("sum(rate(http_requests_total{service=\"frontend\"}[5m]))");
        // 14:00 UTC is the daily peak: 120 req/s * 1.35.
        assertThat(rate).isBetween(120 * 1.35 * 0.9, 120 * 1.35 * 1.1);
    }

    @Test
    void theIncident_showsInLatencyAndErrors() throws Exception {
        double dbP99Now = instant("histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service=\"payments-db\"}[5m])))");
        double dbP99Before = instant("histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service=\"payments-db\"}[5m] offset 1h)))");
        assertThat(dbP99Now).isGreaterThan(dbP99Before * 10);
        double errorRatio = instant("sum(rate(http_requests_total{service=\"payments\",status=~\"5..\"}[5m])) / sum(rate(http_requests_total{service=\"payments\"}[5m]))");
        assertThat(errorRatio).isBetween(0.06, 0.14);
        double healthyRatio = instant("sum(rate(http_requests_total{service=\"inventory\",code=\"500\"}[5m])) / sum(rate(http_requests_total{service=\"inventory\"}[5m]))");
        assertThat(healthyRatio).isLessThan(0.01);
    }

    @Test
    void containerLimits_letUtilizationBeComputedAndTheSlowDatabaseRunsHot() throws Exception {
        String cpu = "sum(rate(container_cpu_usage_seconds_total{container=\"%s\"}[1m]))"
                + " / sum(container_spec_cpu_quota{container=\"%s\"} / container_spec_cpu_period{container=\"%s\"})";
        double dbNow = instant(cpu.formatted("payments-db", "payments-db", "payments-db"));
        double frontendNow = instant(cpu.formatted("frontend", "frontend", "frontend"));
        // the incident adds 0.6 cores to a database limited to one core
        assertThat(dbNow).isBetween(0.7, 1.0);
        assertThat(frontendNow).isBetween(0.05, 0.6);
        double memory = instant("sum(container_memory_working_set_bytes{container=\"payments-db\"})"
                + " / sum(container_spec_memory_limit_bytes{container=\"payments-db\"} > 0)");
        assertThat(memory).isBetween(0.5, 0.85);
    }

    @Test
    void theKubeletJob_reportsTheKubeletsOwnSteadyProcess_besideTheContainersCadvisorSeries() throws Exception {
        // what the curated cpu and memory templates ask for a service named kubelet: its own process first
        double kubeletCpu = instant("sum(rate(process_cpu_seconds_total{job=\"kubelet\"}[5m]))");
        double kubeletCpuBefore = instant("sum(rate(process_cpu_seconds_total{job=\"kubelet\"}[5m] offset 1h))");
        assertThat(kubeletCpu).isBetween(0.12, 0.18); // three nodes, a twentieth of a core each
        assertThat(kubeletCpu).isCloseTo(kubeletCpuBefore, org.assertj.core.data.Offset.offset(0.02)); // the incident does not touch it
        assertThat(instant("sum(process_resident_memory_bytes{job=\"kubelet\"})")).isBetween(3 * 100e6, 3 * 130e6);
        // the cAdvisor series of the same job still carry every container, the database's hot one included
        assertThat(instant("sum(rate(container_cpu_usage_seconds_total{job=\"kubelet\",container=\"payments-db\"}[1m]))"))
                .isGreaterThan(0.6);
    }

    @Test
    void rangeQueries_returnAMatrixOnTheStepGrid() throws Exception {
        long end = NOW.getEpochSecond();
        JsonObject body = get("/api/v1/query_range?query=" + URLEncoder.encode("sum by (service) (rate(http_requests_total[5m]))", StandardCharsets.UTF_8)
                + "&start=" + (end - 3600) + "&end=" + end + "&step=60");
        JsonArray result = body.getJsonObject("data").getJsonArray("result");
        assertThat(body.getJsonObject("data").getString("resultType")).isEqualTo("matrix");
        assertThat(result).hasSize(system.services().size());
        assertThat(result.getJsonObject(0).getJsonArray("values")).hasSize(61);
    }

    @Test
    void aSelectorPinnedAtTheRangesEnd_answersTheSameAtEveryStep_asTheCuratedFallbackGuardsNeed() throws Exception {
        // 'present_over_time(a[range] @ end())' decides a metric family once for the whole range, as Prometheus 2.33+ does
        long end = NOW.getEpochSecond();
        String pinned = "sum(rate(http_requests_total[5m] @ end())) + 0 * count(present_over_time(http_requests_total[1h] @ end()))";
        JsonArray values = get("/api/v1/query_range?query=" + URLEncoder.encode(pinned, StandardCharsets.UTF_8)
                + "&start=" + (end - 3600) + "&end=" + end + "&step=600").getJsonObject("data").getJsonArray("result")
                .getJsonObject(0).getJsonArray("values");
        JsonArray atEnd = get("/api/v1/query?query=" + URLEncoder.encode("sum(rate(http_requests_total[5m]))", StandardCharsets.UTF_8)
                + "&time=" + end).getJsonObject("data").getJsonArray("result").getJsonObject(0).getJsonArray("value");
        assertThat(values).hasSize(7).allSatisfy(v -> assertThat(v.asJsonArray().getString(1)).isEqualTo(atEnd.getString(1)));
    }

    @Test
    void labelValuesTargetsAndMetadata_describeTheShop() throws Exception {
        assertThat(get("/api/v1/label/job/values").getJsonArray("data").toString()).contains("payments-db", "frontend");
        // every pod, and each node's kubelet twice (its own /metrics and the containers' /metrics/cadvisor)
        assertThat(get("/api/v1/targets").getJsonObject("data").getJsonArray("activeTargets"))
                .hasSize(system.pods().size() + 2 * SimulatedSystem.NODES.size());
        assertThat(get("/api/v1/metadata").getJsonObject("data").containsKey("http_requests_total")).isTrue();
    }

    @Test
    void badQueries_areBadDataLikePrometheus() throws Exception {
        JsonObject body = get("/api/v1/query?query=" + URLEncoder.encode("sum(rate(x[5m]", StandardCharsets.UTF_8));
        assertThat(body.getString("status")).isEqualTo("error");
        assertThat(body.getString("errorType")).isEqualTo("bad_data");
        assertThat(get("/api/v1/query?query=nosuchfn(up)").getString("error")).contains("unknown function");
    }
}
