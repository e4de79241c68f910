package dev.omcp.connectors.builtin.prometheus;

import static dev.omcp.testkit.prometheus.SyntheticMetrics.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the curated PromQL means on a real Prometheus, for layouts the generated history lacks: two exporters spelling the
 * status label differently in one service, a preferred metric family with a gap, and a container with a limit but no
 * usage reported. A fixture of its own, so the other tests' exact answers stay as they are.
 */
@Tag("backend")
class CuratedMetricsSemanticsIT {
    /** Ledger: one exporter says {@code code}, a sidecar says {@code status}, one series says both, one neither. */
    private static final String LEDGER = "ledger";
    /** Inventory: its process memory has a gap of a quarter of an hour; its container's working set has none. */
    private static final String INVENTORY = "inventory";
    private static final long PROCESS_BYTES = 200L << 20;
    private static final long CONTAINER_BYTES = 250L << 20;
    /** Stock: pod stock-0 has usage and limits, stock-1 limits only (just started: no usage reported yet). */
    private static final String STOCK = "stock";
    /**
     * Billing: a summary {@code http_request_duration_seconds} (quantiles, {@code _count}, no buckets) beside a
     * Micrometer histogram with buckets, the only family of the two a quantile can be computed from.
     */
    private static final String BILLING = "billing";

    private static PrometheusFixture prometheus;
    private static PrometheusConnector connector;

    @BeforeAll
    static void start() throws Exception {
        prometheus = PrometheusFixture.start(Duration.ofHours(1), CuratedMetricsSemanticsIT::series);
        PrometheusConnectorFactory factory = new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ofMinutes(1));
        SourceConfig source = new SourceConfig("prom", "prometheus", prometheus.url(), "", JsonObject.EMPTY_JSON_OBJECT);
        connector = (PrometheusConnector) factory.create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source))
                .toCompletableFuture().get();
    }

    @AfterAll
    static void stop() {
        if (connector != null) {
            connector.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    private static String series(long first, long last) {
        String ledger = "{job=\"" + LEDGER + "\",instance=\"";
        String inventory = "{job=\"" + INVENTORY + "\"";
        String stock0 = "{container=\"" + STOCK + "\",namespace=\"shop\",pod=\"" + STOCK + "-0\"}";
        String stock1 = "{container=\"" + STOCK + "\",namespace=\"shop\",pod=\"" + STOCK + "-1\"}";
        long gapFrom = last - Duration.ofMinutes(20).toSeconds();
        long gapTo = last - Duration.ofMinutes(8).toSeconds();
        return "# TYPE http_requests counter\n"
                + samples("http_requests_total", ledger + "a\",code=\"200\"}", first, last, 10, 0)
                + samples("http_requests_total", ledger + "a\",code=\"500\"}", first, last, 1, 0)
                + samples("http_requests_total", ledger + "b\",status=\"200\"}", first, last, 5, 0)
                + samples("http_requests_total", ledger + "b\",status=\"503\"}", first, last, 2, 0)
                + samples("http_requests_total", ledger + "c\",code=\"500\",status=\"500\"}", first, last, 1, 0)
                + samples("http_requests_total", ledger + "d\",route=\"/metrics\"}", first, last, 100, 0)
                + "# TYPE process_resident_memory_bytes gauge\n"
                + samples("process_resident_memory_bytes", inventory + ",instance=\"inventory:8080\"}", first, gapFrom, 0, PROCESS_BYTES)
                + samples("process_resident_memory_bytes", inventory + ",instance=\"inventory:8080\"}", gapTo, last, 0, PROCESS_BYTES)
                + "# TYPE container_memory_working_set_bytes gauge\n"
                + samples("container_memory_working_set_bytes", inventory + ",container=\"inventory\",pod=\"inventory-0\"}", first, last,
                        0, CONTAINER_BYTES)
                + samples("container_memory_working_set_bytes", stock0, first, last, 0, 100L << 20)
                + "# TYPE container_cpu_usage_seconds counter\n"
                + samples("container_cpu_usage_seconds_total", stock0, first, last, 0.2, 0)
                + "# TYPE container_spec_cpu_quota gauge\n"
                + samples("container_spec_cpu_quota", stock0, first, last, 0, 50_000)
                + samples("container_spec_cpu_quota", stock1, first, last, 0, 100_000)
                + "# TYPE container_spec_cpu_period gauge\n"
                + samples("container_spec_cpu_period", stock0, first, last, 0, 100_000)
                + samples("container_spec_cpu_period", stock1, first, last, 0, 100_000)
                + "# TYPE container_spec_memory_limit_bytes gauge\n"
                + samples("container_spec_memory_limit_bytes", stock0, first, last, 0, 400L << 20)
                + samples("container_spec_memory_limit_bytes", stock1, first, last, 0, 400L << 20)
                + "# TYPE http_request_duration_seconds summary\n"
                + samples("http_request_duration_seconds", "{job=\"" + BILLING + "\",quantile=\"0.99\"}", first, last, 0, 0.3)
                + samples("http_request_duration_seconds_count", "{job=\"" + BILLING + "\"}", first, last, 10, 0)
                + samples("http_request_duration_seconds_sum", "{job=\"" + BILLING + "\"}", first, last, 1, 0)
                + "# TYPE http_server_requests_seconds histogram\n"
                + samples("http_server_requests_seconds_bucket", "{job=\"" + BILLING + "\",le=\"0.1\"}", first, last, 10, 0)
                + samples("http_server_requests_seconds_bucket", "{job=\"" + BILLING + "\",le=\"+Inf\"}", first, last, 10, 0)
                + samples("http_server_requests_seconds_count", "{job=\"" + BILLING + "\"}", first, last, 10, 0)
                // the service's own target names it: cAdvisor's series carry only the container name
                + "# TYPE up gauge\n" + samples("up", "{job=\"" + STOCK + "\"}", first, last, 0, 1);
    }

    private static MetricResult query(String service, String metric, List<String> groupBy) throws ConnectorException {
        TimeRange range = TimeRange.ending(prometheus.end(), Duration.ofMinutes(30));
        return connector.queryMetrics(new MetricQuery(service, metric, range, Duration.ofMinutes(1), groupBy, Map.of()));
    }

    private static double last(Series s) {
        return s.valueAt(s.size() - 1);
    }

    @Test
    void errorRate_countsThe5xxOfBothStatusLabelSpellingsInOneService_aSeriesWithBothOnce_overTheRequestsWithAStatus()
            throws ConnectorException {
        // 'code 5xx or status 5xx' per group dropped the sidecar's 503s once any series said code, and the requests of a
        // series without any status label diluted the share: (1 + 2 + 1) / (10 + 1 + 5 + 2 + 1), not 2 / 119
        MetricResult whole = query(LEDGER, "error_rate", List.of());
        assertThat(whole.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(4.0 / 19, within(1e-9)));

        MetricResult perInstance = query(LEDGER, "error_rate", List.of("instance"));
        assertThat(perInstance.series()).extracting(s -> s.labels().get("instance")).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(perInstance.series()).allSatisfy(s -> assertThat(last(s)).as(s.labels().toString()).isCloseTo(switch (
                s.labels().get("instance")) {
            case "a" -> 1.0 / 11;
            case "b" -> 2.0 / 7;
            default -> 1.0;
        }, within(1e-9)));
    }

    @Test
    void aGapInThePreferredFamily_isAGap_notTheNextFamilysFigureForThoseSteps() throws ConnectorException {
        // decided per step, the steps without process memory read the container's working set: a jump from 200 MiB
        // to 250 MiB and back that no process made
        MetricResult memory = query(INVENTORY, "memory", List.of());
        assertThat(memory.series()).singleElement().satisfies(s -> {
            assertThat(IntStream.range(0, s.size()).mapToDouble(s::valueAt)).containsOnly((double) PROCESS_BYTES);
            assertThat(s.size()).as("the steps of the gap have no point").isLessThan(31);
        });
        MetricResult containerOnly = connector.queryMetrics(new MetricQuery(INVENTORY, "memory", TimeRange.ending(prometheus.end(),
                Duration.ofMinutes(30)), Duration.ofMinutes(1), List.of(), Map.of("container", INVENTORY)));
        assertThat(containerOnly.series()).as("without the process family in the range the next family answers, all of it")
                .singleElement().satisfies(s -> {
                    assertThat(s.size()).isEqualTo(31);
                    assertThat(last(s)).isEqualTo((double) CONTAINER_BYTES);
                });
    }

    @Test
    void aQuantile_comesFromTheFirstFamilyWithBuckets_notFromASummaryThatHasACountButNone() throws ConnectorException {
        // a summary (or a Micrometer timer without percentile histograms) exports _count but no _bucket: judged present by
        // its _count, it shut out the family with buckets and the quantile came back empty
        MetricResult p99 = query(BILLING, "latency_p99", List.of());
        assertThat(p99.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(0.099, within(1e-9)));
    }

    @Test
    void utilization_leavesOutAContainerWithALimitButNoUsageReported_onBothSides() throws ConnectorException {
        // stock-1's limits with no usage would make a made-up 0 of it and halve the share of the container that runs:
        // the share is over the containers measured (0.2 of 0.5 cores, 100 of 400 MiB)
        MetricResult cpu = query(STOCK, "cpu_utilization", List.of());
        assertThat(cpu.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(0.4, within(1e-9)));
        MetricResult memory = query(STOCK, "memory_utilization", List.of());
        assertThat(memory.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(0.25, within(1e-9)));
        assertThat(query(STOCK, "memory_utilization", List.of("pod")).series()).singleElement()
                .satisfies(s -> assertThat(s.labels()).containsEntry("pod", STOCK + "-0"));
    }
}
