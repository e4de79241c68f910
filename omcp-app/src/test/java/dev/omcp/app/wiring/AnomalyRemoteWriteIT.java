package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.support.RunningGateway;
import dev.omcp.core.sources.Bound;
import dev.omcp.core.tools.observability.ListServicesTool;
import dev.omcp.core.tools.observability.ObservabilityTool;
import dev.omcp.core.tools.observability.QueryMetricsTool;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.LogLevel;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Anomaly scores written with the real Prometheus remote-write protocol into the real Prometheus
 * (started with its receiver), then read back through the gateway's own builtin Prometheus
 * connector, as {@code get_anomaly_history} beyond the in-memory hour would.
 */
@Tag("backend")
class AnomalyRemoteWriteIT {
    private static PrometheusFixture prometheus;
    private static RunningGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        prometheus = PrometheusFixture.startWithRemoteWriteReceiver(Duration.ofHours(1));
        gateway = RunningGateway.start(Map.of(
                "PROMETHEUS_URL", prometheus.url(),
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE", prometheus.remoteWriteUrl(),
                "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                // the test writes series after the connector may have listed label values
                "OMCP_SERVICE_LABEL_CACHE_TTL", "0"));
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

    @Test
    void recordedScores_arriveInPrometheus_andAreReadBackThroughThePrometheusConnector() throws Exception {
        // The fixture's backfilled blocks end at prometheus.end(); Prometheus refuses samples at or before
        // the newest block as "out of bounds", so the scores are stamped after it (a live receiver has no such edge).
        Instant first = latest(Instant.now(), prometheus.end().plusSeconds(1)).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Instant second = first.plusSeconds(30);
        Instant onset = first.plusSeconds(12);
        List<AnomalyScoreSample> scores = List.of(
                new AnomalyScoreSample("", "rw/checkout", "latency_p99", first, 1.25, false, Optional.empty(), Optional.empty()),
                new AnomalyScoreSample("", "rw/checkout", "latency_p99", second, 6.5, true, Optional.of("step"), Optional.of(onset)),
                new AnomalyScoreSample("", "rw/checkout", "error_rate", second, 0.75, false, Optional.empty(), Optional.empty()));
        gateway.assembly().toolkit().history().recordAll(scores);

        Bound<MetricsCapability> source = gateway.assembly().sources().with(MetricsCapability.class, Principal.anonymous()).getFirst();
        MetricQuery query = new MetricQuery("rw/checkout", "omcp_anomaly_score",
                new TimeRange(first.minusSeconds(60), second.plusSeconds(60)), Duration.ofSeconds(15), List.of("signal"), Map.of());
        MetricResult result = awaitSeries(source.capability(), query, 2);

        // the connector found the service by the sink's "service" label and grouped by signal
        assertThat(result.resolvedLabel()).isEqualTo("service");
        Series latency = series(result, "latency_p99");
        Series errors = series(result, "error_rate");
        assertThat(last(latency)).isEqualTo(6.5);
        assertThat(latency.values()).contains(1.25);
        assertThat(last(errors)).isEqualTo(0.75);

        MetricResult detected = awaitSeries(source.capability(), new MetricQuery("rw/checkout", "omcp_anomaly_detected",
                new TimeRange(first.minusSeconds(60), second.plusSeconds(60)), Duration.ofSeconds(15), List.of("signal"), Map.of()), 2);
        assertThat(last(series(detected, "latency_p99"))).isEqualTo(1.0);
        assertThat(last(series(detected, "error_rate"))).isEqualTo(0.0);

        // the dated anomaly also sent when it began, as a timestamp in seconds; the normal scores sent none
        MetricResult onsets = awaitSeries(source.capability(), new MetricQuery("rw/checkout", "omcp_anomaly_onset_timestamp_seconds",
                new TimeRange(first.minusSeconds(60), second.plusSeconds(60)), Duration.ofSeconds(15), List.of("signal"), Map.of()), 1);
        assertThat(onsets.series()).singleElement().satisfies(s -> {
            assertThat(s.labels()).containsEntry("signal", "latency_p99");
            assertThat(last(s)).isEqualTo(onset.getEpochSecond());
        });
    }

    @Test
    void twoReplicasWithExternalLabels_bothStoreTheirScores_andReadingBackMergesThem() throws Exception {
        Map<String, String> common = Map.of("PROMETHEUS_URL", prometheus.url(), "OMCP_ANOMALY_HISTORY_REMOTE_WRITE",
                prometheus.remoteWriteUrl(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true", "OMCP_SERVICE_LABEL_CACHE_TTL", "0");
        Instant at = latest(Instant.now(), prometheus.end().plusSeconds(1)).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        try (RunningGateway a = RunningGateway.start(with(common, "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", "replica=omcp-a"));
                RunningGateway b = RunningGateway.start(with(common, "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", "replica=omcp-b"))) {
            // both judged the same service and signal at the same moment, as replicas behind one load balancer do:
            // without external labels these would be one series, the second point refused as a duplicate
            a.assembly().toolkit().history().record(new AnomalyScoreSample("", "rw/replicated", "latency_p99", at, 6.0, true,
                    Optional.of("step"), Optional.of(at.minusSeconds(20))));
            b.assembly().toolkit().history().record(new AnomalyScoreSample("", "rw/replicated", "latency_p99", at, 7.5, true,
                    Optional.of("step"), Optional.of(at.minusSeconds(10))));

            MetricsCapability metrics = gateway.assembly().sources().with(MetricsCapability.class, Principal.anonymous()).getFirst()
                    .capability();
            TimeRange range = new TimeRange(at.minusSeconds(60), at.plusSeconds(60));
            MetricResult perReplica = awaitSeries(metrics, new MetricQuery("rw/replicated", "omcp_anomaly_score", range,
                    Duration.ofSeconds(15), List.of("replica"), Map.of()), 2);
            assertThat(last(replica(perReplica, "omcp-a"))).as("both replicas' points are stored").isEqualTo(6.0);
            assertThat(last(replica(perReplica, "omcp-b"))).isEqualTo(7.5);

            // read back as get_anomaly_history advises (groupBy signal): one series, the strongest verdict of the two
            MetricResult merged = metrics.queryMetrics(new MetricQuery("rw/replicated", "omcp_anomaly_score", range,
                    Duration.ofSeconds(15), List.of("signal"), Map.of()));
            assertThat(merged.series()).singleElement().satisfies(s -> assertThat(last(s)).isEqualTo(7.5));
            MetricResult unGrouped = metrics.queryMetrics(new MetricQuery("rw/replicated", "omcp_anomaly_score", range,
                    Duration.ofSeconds(15), List.of(), Map.of()));
            assertThat(unGrouped.series()).as("without groupBy too").singleElement().satisfies(s -> {
                assertThat(s.labels()).containsEntry("signal", "latency_p99").doesNotContainKey("replica");
                assertThat(last(s)).isEqualTo(7.5);
            });
            MetricResult onsets = awaitSeries(metrics, new MetricQuery("rw/replicated", "omcp_anomaly_onset_timestamp_seconds", range,
                    Duration.ofSeconds(15), List.of("signal"), Map.of()), 1);
            assertThat(onsets.series()).as("the earliest onset either replica dated").singleElement()
                    .satisfies(s -> assertThat(last(s)).isEqualTo(at.minusSeconds(20).getEpochSecond()));
        }
    }

    @Test
    void queryMetrics_readsBackOnlyTheCallersTenantsScores_thoughTheReceiverHoldsEveryTenants() throws Exception {
        Instant at = latest(Instant.now(), prometheus.end().plusSeconds(1)).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        gateway.assembly().toolkit().history().recordAll(List.of(
                new AnomalyScoreSample("acme", "rw/shared", "latency_p99", at, 2.5, false, Optional.empty(), Optional.empty()),
                new AnomalyScoreSample("globex", "rw/shared", "latency_p99", at, 9.5, true, Optional.of("spike"), Optional.empty()),
                new AnomalyScoreSample("", "rw/shared", "latency_p99", at, 4.5, false, Optional.empty(), Optional.empty())));
        MetricsCapability metrics = gateway.assembly().sources().with(MetricsCapability.class, Principal.anonymous()).getFirst()
                .capability();
        awaitSeries(metrics, new MetricQuery("rw/shared", "omcp_anomaly_score", new TimeRange(at.minusSeconds(60), at.plusSeconds(60)),
                Duration.ofSeconds(15), List.of("tenant"), Map.of()), 3);

        QueryMetricsTool tool = new QueryMetricsTool(gateway.assembly().toolkit());
        String arguments = "{\"service\":\"rw/shared\",\"metric\":\"omcp_anomaly_score\",\"groupBy\":[\"signal\"],\"duration\":\"10m\"}";
        assertThat(maxOfSeries(tool, arguments, Principal.apiKey("acme-agent", "acme"))).as("acme's own score, not globex's 9.5")
                .containsExactly(2.5);
        assertThat(maxOfSeries(tool, arguments, Principal.apiKey("globex-agent", "globex"))).containsExactly(9.5);
        assertThat(maxOfSeries(tool, arguments, Principal.anonymous())).as("without a tenant: the score recorded without one")
                .containsExactly(4.5);
    }

    @Test
    void listServices_namesNoServiceOnlyTheGatewaysScoresCarry_soNoTenantSeesTheNamesAnotherTenantJudged() throws Exception {
        Instant at = latest(Instant.now(), prometheus.end().plusSeconds(1)).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        gateway.assembly().toolkit().history().recordAll(List.of(
                new AnomalyScoreSample("acme", "rw/acme-only", "latency_p99", at, 1.5, false, Optional.empty(), Optional.empty()),
                new AnomalyScoreSample("globex", "rw/globex-only", "error_rate", at, 8.5, true, Optional.of("spike"), Optional.empty())));
        MetricsCapability metrics = gateway.assembly().sources().with(MetricsCapability.class, Principal.anonymous()).getFirst()
                .capability();
        awaitSeries(metrics, new MetricQuery("rw/globex-only", "omcp_anomaly_score", new TimeRange(at.minusSeconds(60),
                at.plusSeconds(60)), Duration.ofSeconds(15), List.of("tenant"), Map.of()), 1);

        ListServicesTool list = new ListServicesTool(gateway.assembly().toolkit());
        for (Principal caller : List.of(Principal.apiKey("acme-agent", "acme"), Principal.apiKey("globex-agent", "globex"),
                Principal.anonymous())) {
            List<String> names = structured(list, "{\"limit\":1000}", caller).getJsonArray("services").getValuesAs(JsonObject.class)
                    .stream().map(s -> s.getString("name")).toList();
            assertThat(names).as("the backend's own services, not the names judged for any tenant").contains("api", "checkout")
                    .noneMatch(name -> name.startsWith("rw/"));
        }

        QueryMetricsTool query = new QueryMetricsTool(gateway.assembly().toolkit());
        JsonObject probe = structured(query, "{\"service\":\"rw/globex-only\",\"metric\":\"up\",\"duration\":\"10m\"}",
                Principal.apiKey("acme-agent", "acme"));
        assertThat(probe.isNull("resolvedLabel")).as("another tenant's judged name is no service of the source: " + probe).isTrue();
        assertThat(maxOfSeries(query, "{\"service\":\"rw/globex-only\",\"metric\":\"omcp_anomaly_score\",\"groupBy\":[\"signal\"],"
                + "\"duration\":\"10m\"}", Principal.apiKey("globex-agent", "globex"))).as("its own tenant still reads it back")
                .containsExactly(8.5);
    }

    private static List<Double> maxOfSeries(QueryMetricsTool tool, String arguments, Principal caller) {
        return structured(tool, arguments, caller).getJsonArray("series").getValuesAs(JsonObject.class).stream()
                .map(s -> s.getJsonNumber("max").doubleValue()).toList();
    }

    private static JsonObject structured(ObservabilityTool tool, String arguments, Principal caller) {
        ToolResult result = tool.call(new ToolCall() {
            @Override
            public Principal principal() {
                return caller;
            }

            @Override
            public JsonObject arguments() {
                return Json.createReader(new StringReader(arguments)).readObject();
            }

            @Override
            public void progress(double progress, double total, String message) {}

            @Override
            public void log(LogLevel level, String logger, JsonValue data) {}

            @Override
            public JsonObject requestFromClient(String method, JsonObject params, Duration timeout) {
                throw new UnsupportedOperationException("no client in this test");
            }
        });
        assertThat(result.isError()).as(result.firstText()).isFalse();
        return result.structuredContent().orElseThrow();
    }

    private static Map<String, String> with(Map<String, String> env, String name, String value) {
        Map<String, String> more = new java.util.HashMap<>(env);
        more.put(name, value);
        return more;
    }

    private static Series replica(MetricResult result, String replica) {
        return result.series().stream().filter(s -> replica.equals(s.labels().get("replica"))).findFirst()
                .orElseThrow(() -> new AssertionError("no series of replica " + replica + " in " + result.series()));
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static double last(Series series) {
        return series.valueAt(series.size() - 1);
    }

    private static Series series(MetricResult result, String signal) {
        return result.series().stream().filter(s -> signal.equals(s.labels().get("signal"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + signal + " series in " + result.series()));
    }

    /** Polls until Prometheus answers with {@code count} series: the sink sends within about a second. */
    private static MetricResult awaitSeries(MetricsCapability metrics, MetricQuery query, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        MetricResult last = null;
        while (System.nanoTime() < deadline) {
            last = metrics.queryMetrics(query);
            if (last.series().size() >= count) {
                return last;
            }
            Thread.sleep(200); // waiting for a real process on another thread
        }
        throw new AssertionError("Prometheus did not answer " + count + " series in time; last answer: " + last);
    }
}
