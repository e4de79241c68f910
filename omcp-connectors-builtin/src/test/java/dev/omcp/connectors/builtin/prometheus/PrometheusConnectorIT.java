package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.prometheus.PrometheusFixture;
import dev.omcp.testkit.prometheus.SyntheticMetrics;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The prometheus connector against a real Prometheus 2.x on a backfilled TSDB. */
@Tag("backend")
class PrometheusConnectorIT {
    private static PrometheusFixture prometheus;
    private static PrometheusConnector connector;

    @BeforeAll
    static void start() throws Exception {
        prometheus = PrometheusFixture.start(Duration.ofHours(2));
        connector = create(JsonObject.EMPTY_JSON_OBJECT);
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

    private static PrometheusConnector create(JsonObject settings) throws Exception {
        PrometheusConnectorFactory factory = new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ofMinutes(1));
        SourceConfig source = new SourceConfig("prom", "prometheus", prometheus.url(), "", settings);
        Connector c = factory.create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().get();
        return (PrometheusConnector) c;
    }

    private static MetricResult query(String service, String metric, List<String> groupBy, Map<String, String> labels)
            throws ConnectorException {
        TimeRange range = TimeRange.ending(prometheus.end(), Duration.ofMinutes(30));
        return connector.queryMetrics(new MetricQuery(service, metric, range, Duration.ofMinutes(1), groupBy, labels));
    }

    private static double last(Series s) {
        return s.valueAt(s.size() - 1);
    }

    @Test
    void healthReportsTheVersion() {
        Health health = connector.health();
        assertThat(health.up()).isTrue();
        assertThat(health.message()).startsWith("Prometheus 2.");
    }

    @Test
    void servicesComeFromLabelValuesWhenNothingIsScraped() throws ConnectorException {
        List<ServiceInfo> services = connector.listServices();
        assertThat(services).extracting(ServiceInfo::name).containsExactly("api", "billing", "checkout", "team/search");
        assertThat(services).filteredOn(s -> s.name().equals("billing")).singleElement()
                .satisfies(s -> assertThat(s.attributes()).containsEntry("label", "app"));
    }

    @Test
    void curatedMetricsAnswerWithTheExactGeneratedRates() throws ConnectorException {
        for (SyntheticMetrics.Service s : SyntheticMetrics.SERVICES) {
            MetricResult cpu = query(s.name(), "cpu", List.of(), Map.of());
            assertThat(cpu.resolvedLabel()).isEqualTo(s.label());
            assertThat(cpu.series()).hasSize(1);
            assertThat(last(cpu.series().get(0))).as("cpu of " + s.name()).isCloseTo(s.cpuCoresPerSecond(), within(1e-6));

            MetricResult memory = query(s.name(), "memory", List.of(), Map.of());
            assertThat(last(memory.series().get(0))).isEqualTo((double) s.memoryBytes());

            double extra = s.name().equals("api") ? 1 : 0; // the awkward-route series
            MetricResult requests = query(s.name(), "request_rate", List.of(), Map.of());
            assertThat(last(requests.series().get(0))).isCloseTo(s.okPerSecond() + s.errorsPerSecond() + extra, within(1e-6));

            MetricResult errors = query(s.name(), "error_rate", List.of(), Map.of());
            assertThat(last(errors.series().get(0))).as("error rate of " + s.name())
                    .isCloseTo(s.errorsPerSecond() / (s.okPerSecond() + s.errorsPerSecond() + extra), within(1e-6));

            MetricResult p99 = query(s.name(), "latency_p99", List.of(), Map.of());
            assertThat(last(p99.series().get(0))).isBetween(s.latencyLow(), s.latencyHigh());
            MetricResult p50 = query(s.name(), "latency_p50", List.of(), Map.of());
            assertThat(last(p50.series().get(0))).isBetween(s.latencyLow(), s.latencyHigh());
            MetricResult avg = query(s.name(), "latency_avg", List.of(), Map.of());
            assertThat(last(avg.series().get(0))).isCloseTo((s.latencyLow() + s.latencyHigh()) / 2, within(1e-6));
        }
    }

    @Test
    void aServiceMeasuredByTwoFamilies_answersFromTheFirstOnly_evenWhenTheOtherLacksTheGroupByLabel() throws ConnectorException {
        // checkout has process_* per instance and cAdvisor container_* without instance: 'or' alone added the containers'
        // figure as a series without labels beside the process's, two measurements in one answer
        SyntheticMetrics.Service checkout = SyntheticMetrics.SERVICES.stream()
                .filter(s -> s.name().equals(SyntheticMetrics.CONTAINER_MEASURED)).findFirst().orElseThrow();
        MetricResult cpu = query(checkout.name(), "cpu", List.of("instance"), Map.of());
        assertThat(cpu.series()).singleElement().satisfies(s -> {
            assertThat(s.labels()).containsEntry("instance", checkout.name() + ":8080");
            assertThat(last(s)).isCloseTo(checkout.cpuCoresPerSecond(), within(1e-6));
        });
        MetricResult memory = query(checkout.name(), "memory", List.of("instance"), Map.of());
        assertThat(memory.series()).singleElement().satisfies(s -> assertThat(last(s)).isEqualTo((double) checkout.memoryBytes()));
    }

    @Test
    void theNextFamilyAnswersWholeWhenTheFirstHasNoSeries() throws ConnectorException {
        // filtered on the container label only the cAdvisor series are left: they answer, with their own labels
        MetricResult cpu = query(SyntheticMetrics.CONTAINER_MEASURED, "cpu", List.of("pod"),
                Map.of("container", SyntheticMetrics.CONTAINER_MEASURED));
        assertThat(cpu.series()).singleElement().satisfies(s -> {
            assertThat(s.labels()).containsEntry("pod", SyntheticMetrics.CONTAINER_MEASURED + "-0");
            assertThat(last(s)).isCloseTo(SyntheticMetrics.CONTAINER_CPU_CORES, within(1e-6));
        });
        MetricResult memory = query(SyntheticMetrics.CONTAINER_MEASURED, "memory", List.of(),
                Map.of("container", SyntheticMetrics.CONTAINER_MEASURED));
        assertThat(memory.series()).singleElement()
                .satisfies(s -> assertThat(last(s)).isEqualTo((double) SyntheticMetrics.CONTAINER_MEMORY_BYTES));
    }

    @Test
    void utilization_isTheUsageOfTheContainersWithALimitOverTheirLimits_aContainerWithoutOneCountsNeitherWay()
            throws ConnectorException {
        // billing-1 has no limit (quota -1, memory limit 0) and uses more than billing-0: its usage was counted against
        // billing-0's limits (cpu 2.5, memory 1.0), and per pod its quota of -1 gave a negative share
        String billing = SyntheticMetrics.LIMITED_CONTAINER;
        double cpuShare = SyntheticMetrics.LIMITED_CPU_CORES / SyntheticMetrics.LIMITED_CPU_LIMIT_CORES;
        double memoryShare = (double) SyntheticMetrics.LIMITED_MEMORY_BYTES / SyntheticMetrics.LIMITED_MEMORY_LIMIT_BYTES;
        MetricResult cpu = query(billing, "cpu_utilization", List.of(), Map.of());
        assertThat(cpu.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(cpuShare, within(1e-6)));
        MetricResult memory = query(billing, "memory_utilization", List.of(), Map.of());
        assertThat(memory.series()).singleElement().satisfies(s -> assertThat(last(s)).isCloseTo(memoryShare, within(1e-9)));
        for (String metric : List.of("cpu_utilization", "memory_utilization")) {
            MetricResult perPod = query(billing, metric, List.of("pod"), Map.of("namespace", SyntheticMetrics.LIMITED_NAMESPACE));
            assertThat(perPod.series()).as(metric + " per pod: only the pod with a limit has a share").singleElement()
                    .satisfies(s -> assertThat(s.labels()).containsEntry("pod", billing + "-0"));
        }
    }

    @Test
    void resolvedSeriesShowsThePromqlThatRan() throws ConnectorException {
        MetricResult result = query("team/search", "cpu", List.of(), Map.of());
        assertThat(result.resolvedSeries()).contains("process_cpu_seconds_total{job=\"team/search\"}");
    }

    @Test
    void groupByKeepsSeriesApartAndLabelsFilterExactly() throws ConnectorException {
        MetricResult byCode = query("checkout", "http_requests_total", List.of("code"), Map.of());
        assertThat(byCode.series()).extracting(s -> s.labels().get("code")).containsExactlyInAnyOrder("200", "500");

        MetricResult onlyErrors = query("checkout", "http_requests_total", List.of(), Map.of("code", "500"));
        assertThat(onlyErrors.series()).singleElement().satisfies(s -> assertThat(s.labels()).containsEntry("code", "500"));
    }

    @Test
    void everyLabelValueIsEscaped() throws ConnectorException {
        // a value with a quote, a backslash and a newline matches exactly its one series
        MetricResult awkward = query("api", "http_requests_total", List.of(), Map.of("route", SyntheticMetrics.AWKWARD_ROUTE));
        assertThat(awkward.series()).singleElement()
                .satisfies(s -> assertThat(s.labels()).containsEntry("route", SyntheticMetrics.AWKWARD_ROUTE));
        // an injection attempt is only a value that matches nothing
        MetricResult injected = query("api\"} or vector(1) #", "cpu", List.of(), Map.of());
        assertThat(injected.series()).isEmpty();
        assertThat(injected.resolvedLabel()).isEmpty();
        MetricResult injectedLabel = query("api", "cpu", List.of(), Map.of("instance", "x\"} or vector(42) or {a=\"b"));
        assertThat(injectedLabel.series()).isEmpty();
    }

    @Test
    void badLabelNamesAndPromqlAreRefusedBeforeAnyCall() {
        assertThatThrownBy(() -> query("api", "cpu", List.of("code) or vector(1"), Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY));
        assertThatThrownBy(() -> query("api", "sum(rate(x[5m]))", List.of(), Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("curated"));
    }

    @Test
    void stepIsWidenedToCapThePoints() throws ConnectorException {
        TimeRange day = TimeRange.ending(prometheus.end(), Duration.ofHours(2));
        MetricResult result = connector.queryMetrics(new MetricQuery("api", "memory", day, Duration.ofSeconds(1), List.of(), Map.of()));
        assertThat(result.series().get(0).size()).isLessThanOrEqualTo(PrometheusConnector.MAX_POINTS + 1).isGreaterThan(100);
    }

    @Test
    void perSourceOverridesReplaceTheCuratedQuery() throws Exception {
        JsonObject settings = Json.createObjectBuilder()
                .add("metrics", Json.createObjectBuilder()
                        .add("memory", "max by ({{by}}) (process_resident_memory_bytes{{{selector}}}) / 1048576")
                        .add("saturation", "sum(rate(process_cpu_seconds_total{{{selector}}}[{{window}}]))"))
                .build();
        try (PrometheusConnector custom = create(settings)) {
            TimeRange range = TimeRange.ending(prometheus.end(), Duration.ofMinutes(10));
            MetricResult memory = custom.queryMetrics(new MetricQuery("api", "memory", range, Duration.ofMinutes(1), List.of(), Map.of()));
            assertThat(last(memory.series().get(0))).isEqualTo(150.0);
            MetricResult saturation = custom.queryMetrics(new MetricQuery("checkout", "saturation", range, Duration.ofMinutes(1),
                    List.of(), Map.of()));
            assertThat(last(saturation.series().get(0))).isCloseTo(0.5, within(1e-6));
        }
    }

    @Test
    void serviceLabelsCanBeNarrowedPerSource() throws Exception {
        try (PrometheusConnector jobOnly = create(Json.createObjectBuilder().add("serviceLabels", "job").build())) {
            assertThat(jobOnly.listServices()).extracting(ServiceInfo::name).doesNotContain("billing");
            assertThat(jobOnly.queryMetrics(new MetricQuery("billing", "cpu", TimeRange.ending(prometheus.end(), Duration.ofMinutes(10)),
                    Duration.ofMinutes(1), List.of(), Map.of())).series()).isEmpty();
        }
    }

    @Test
    void aDottedServiceLabelThis2xServerCannotStore_costsNothing_theNextLabelStillFindsTheService() throws Exception {
        // 2.42 refuses 'service.name' in the label-values path with a 400; the escaped name it reads as a label without values
        JsonObject settings = Json.createObjectBuilder().add("serviceLabels", Json.createArrayBuilder().add("service.name").add("job"))
                .build();
        try (PrometheusConnector otel = create(settings)) {
            assertThat(otel.listServices()).extracting(ServiceInfo::name).contains("api", "checkout");
            MetricResult result = otel.queryMetrics(new MetricQuery("api", "http_requests_total",
                    TimeRange.ending(prometheus.end(), Duration.ofMinutes(10)), Duration.ofMinutes(1), List.of(), Map.of()));
            assertThat(result.resolvedLabel()).isEqualTo("job");
            assertThat(result.series()).isNotEmpty();
        }
    }

    @Test
    void metricDiscoveryListsTheServicesMetrics() throws ConnectorException {
        List<MetricInfo> metrics = connector.discoverMetrics("billing", 100);
        assertThat(metrics).extracting(MetricInfo::name).contains("process_cpu_seconds_total", "http_request_duration_seconds_bucket");
        assertThat(connector.discoverMetrics("", 2)).hasSize(2);
        assertThat(connector.discoverMetrics("no-such-service", 10)).isEmpty();
    }

    @Test
    void aTargetScrapedEveryMinute_hasARateOnceTheSourceSaysSo_andTheWindowShowsInTheQueryThatRan() throws Exception {
        String template = "sum by ({{by}}) (rate(" + SyntheticMetrics.SPARSE_COUNTER + "{{{selector}}}[{{window}}]))";
        TimeRange range = TimeRange.ending(prometheus.end(), Duration.ofMinutes(30));
        MetricQuery query = new MetricQuery("api", "batch_rate", range, Duration.ofSeconds(30), List.of(), Map.of());
        JsonObject metrics = Json.createObjectBuilder().add("batch_rate", template).build();
        try (PrometheusConnector fifteen = create(Json.createObjectBuilder().add("metrics", metrics).build())) {
            // the default (15s) window of 1m holds one sample of a minute scrape: rate() has nothing to answer
            assertThat(fifteen.queryMetrics(query).series()).isEmpty();
        }
        try (PrometheusConnector minute = create(Json.createObjectBuilder().add("metrics", metrics).add("scrapeInterval", "1m").build())) {
            MetricResult result = minute.queryMetrics(query);
            assertThat(result.resolvedSeries()).contains("[240s]");
            assertThat(result.series()).singleElement().satisfies(s -> assertThat(last(s))
                    .isCloseTo(SyntheticMetrics.SPARSE_PER_SECOND, within(1e-6)));
        }
    }

    @Test
    void aDottedMetricName_isAQueryThisPrometheusParses() throws ConnectorException {
        // the fixture is Prometheus 2.42, which stores no UTF-8 names: the query must parse and match nothing, not be refused
        MetricResult dotted = query("api", "http.server.request.duration", List.of("instance"), Map.of());
        assertThat(dotted.resolvedSeries()).isEqualTo("sum by (instance) ({__name__=\"http.server.request.duration\",job=\"api\"})");
        assertThat(dotted.series()).isEmpty();
        assertThat(query("api", "http_requests_total", List.of(), Map.of("code", "500")).series()).as("legacy names unchanged")
                .isNotEmpty();
    }

    @Test
    void aDottedLabelName_isWrittenQuoted_whichThis2xServerRefuses_andTheRefusalSaysItNeedsPrometheus3() {
        // 2.42 stores no such label and cannot parse the quoted form: the agent learns why instead of a bare parse error
        assertThatThrownBy(() -> query("api", "http_requests_total", List.of("http.route"), Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                .hasMessageContaining("parse error").hasMessageContaining("http.route are written quoted, as only Prometheus 3");
        assertThatThrownBy(() -> query("api", "http_requests_total", List.of(), Map.of("service.name", "shop")))
                .isInstanceOf(ConnectorException.class).hasMessageContaining("service.name are written quoted");
    }

    @Test
    void backendErrorsCarryTheBackendsMessage() throws Exception {
        JsonObject broken = Json.createObjectBuilder()
                .add("metrics", Json.createObjectBuilder().add("cpu", "sum(rate(process_cpu_seconds_total{{{selector}}}[")).build();
        try (PrometheusConnector custom = create(broken)) {
            assertThatThrownBy(() -> custom.queryMetrics(new MetricQuery("api", "cpu", TimeRange.ending(prometheus.end(),
                    Duration.ofMinutes(10)), Duration.ofMinutes(1), List.of(), Map.of())))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                        assertThat(e.getMessage()).contains("parse error").doesNotContain("127.0.0.1").doesNotContain("http://");
                    });
        }
    }
}
