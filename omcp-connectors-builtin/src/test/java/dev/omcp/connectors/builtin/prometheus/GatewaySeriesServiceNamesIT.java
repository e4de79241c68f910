package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.backend.FakeBackend;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A metrics source pointing at the gateway's own remote-write receiver, which holds every tenant's
 * {@code omcp_anomaly_*} series labelled {@code service}: the service names only those series carry
 * are the gateway's judgements, not services the backend knows, so the connector neither lists nor
 * resolves them; they would name other tenants' services. The gateway's own series still select their
 * service by {@code service}. The fake answers label values as Prometheus does, evaluating the
 * {@code match[]} selector over the series it holds.
 */
class GatewaySeriesServiceNamesIT {
    private static final String OWN_NAMES =
            "omcp_anomaly_detected|omcp_anomaly_level_above_largest_bucket|omcp_anomaly_onset_timestamp_seconds|omcp_anomaly_score";
    private static final TimeRange HOUR = TimeRange.ending(Instant.parse("2026-01-15T12:00:00Z"), Duration.ofHours(1));

    private final List<PrometheusWithSeries> backends = new ArrayList<>();

    @AfterEach
    void stop() {
        backends.forEach(PrometheusWithSeries::close);
    }

    /** A receiver that is also scraped: {@code payments} has series of its own, the other judged names do not. */
    private PrometheusWithSeries receiver() throws IOException {
        return started(List.of(
                Map.of("__name__", "up", "job", "api"),
                Map.of("__name__", "http_requests_total", "service", "payments"),
                Map.of("__name__", "omcp_anomaly_score", "service", "payments", "signal", "error_rate", "tenant", "acme"),
                Map.of("__name__", "omcp_anomaly_score", "service", "globex-secret", "signal", "error_rate", "tenant", "globex"),
                Map.of("__name__", "omcp_anomaly_detected", "service", "acme-only", "signal", "latency_p99", "tenant", "acme"),
                Map.of("__name__", "omcp_anomaly_score", "service", "api", "signal", "latency_p99"),
                Map.of("__name__", "omcp_anomaly_score", "service", "checkout (eu)|x.+", "signal", "latency_p99", "tenant", "acme")));
    }

    @Test
    void listServices_leavesOutTheNamesOnlyTheGatewaysAnomalySeriesCarry_thoseOfEveryTenant() throws Exception {
        try (PrometheusConnector connector = connector(receiver())) {
            assertThat(connector.listServices()).extracting(ServiceInfo::name)
                    .as("payments has series of its own; the rest are only judgements, some of other tenants")
                    .containsExactly("api", "payments");
        }
    }

    @Test
    void aSourceWithoutTheGatewaysSeries_isAskedItsPlainLabelValues_afterOneLookAtTheGatewaysMetricNames() throws Exception {
        PrometheusWithSeries plain = started(List.of(
                Map.of("__name__", "up", "job", "api"),
                Map.of("__name__", "http_requests_total", "service", "payments")));
        try (PrometheusConnector connector = connector(plain)) {
            assertThat(connector.listServices()).extracting(ServiceInfo::name).containsExactly("api", "payments");
            assertThat(labelValueRequests(plain)).as("both read from the index: no selector over the backend's own series")
                    .containsExactlyInAnyOrder("/api/v1/label/__name__/values {__name__=~\"" + OWN_NAMES + "\"}",
                            "/api/v1/label/service/values", "/api/v1/label/job/values", "/api/v1/label/app/values",
                            "/api/v1/label/service_name/values");
        }
    }

    @Test
    void aReceiver_isAskedTheServiceValuesOfTheOtherSeries_once_forListingAndResolvingAlike() throws Exception {
        PrometheusWithSeries receiver = receiver();
        try (PrometheusConnector connector = connector(receiver)) {
            connector.listServices();
            connector.queryMetrics(new MetricQuery("payments", "http_requests_total", HOUR, Duration.ofMinutes(1), List.of(), Map.of()));
            assertThat(labelValueRequests(receiver)).filteredOn(r -> r.startsWith("/api/v1/label/service/"))
                    .containsExactly("/api/v1/label/service/values {service!=\"\",__name__!~\"" + OWN_NAMES + "\"}");
        }
    }

    @Test
    void theGatewaysOwnSeries_selectTheirServiceByTheServiceLabel_evenANameOnlyTheyCarry_orOneAnotherLabelHolds() throws Exception {
        PrometheusWithSeries receiver = receiver();
        try (PrometheusConnector connector = connector(receiver)) {
            MetricResult own = connector.queryMetrics(new MetricQuery("acme-only", "omcp_anomaly_detected", HOUR, Duration.ofMinutes(1),
                    List.of("signal"), Map.of("tenant", "acme")));
            assertThat(own.resolvedLabel()).isEqualTo("service");
            assertThat(own.resolvedSeries()).isEqualTo("max by (signal) (omcp_anomaly_detected{service=\"acme-only\",tenant=\"acme\"})");

            // api is a job first: its anomaly scores are still labelled service, as the gateway writes them
            MetricResult scrapedElsewhere = connector.queryMetrics(new MetricQuery("api", "omcp_anomaly_score", HOUR, Duration.ofMinutes(1),
                    List.of("signal"), Map.of("tenant", "")));
            assertThat(scrapedElsewhere.resolvedSeries()).isEqualTo("max by (signal) (omcp_anomaly_score{service=\"api\",tenant=\"\"})");
        }
    }

    @Test
    void aNameOnlyTheGatewaysSeriesCarry_isNoServiceOfTheBackend_forItsOwnMetricsAndTheirDiscovery() throws Exception {
        PrometheusWithSeries receiver = receiver();
        try (PrometheusConnector connector = connector(receiver)) {
            MetricResult other = connector.queryMetrics(new MetricQuery("globex-secret", "http_requests_total", HOUR, Duration.ofMinutes(1),
                    List.of(), Map.of()));
            assertThat(other.resolvedLabel()).as("resolved, it would tell a caller that some tenant judged globex-secret").isEmpty();
            assertThat(receiver.requests()).noneMatch(r -> r.path().equals("/api/v1/query_range"));
            assertThat(connector.discoverMetrics("globex-secret", 10)).as("its only metrics are the gateway's").isEmpty();

            MetricResult real = connector.queryMetrics(new MetricQuery("payments", "http_requests_total", HOUR, Duration.ofMinutes(1),
                    List.of(), Map.of()));
            assertThat(real.resolvedSeries()).isEqualTo("http_requests_total{service=\"payments\"}");
            assertThat(connector.discoverMetrics("payments", 10)).extracting(MetricInfo::name).contains("http_requests_total");
        }
    }

    @Test
    void metricDiscovery_leavesOutTheGatewaysSeries_soAServicesMetricsDoNotTellWhetherAnyTenantJudgedIt() throws Exception {
        try (PrometheusConnector connector = connector(receiver())) {
            assertThat(connector.discoverMetrics("payments", 10)).extracting(MetricInfo::name)
                    .as("acme judged payments: its omcp_anomaly_score would tell every tenant so").containsExactly("http_requests_total");
            assertThat(connector.discoverMetrics("", 10)).extracting(MetricInfo::name)
                    .as("and without a service, whether any tenant judged anything").containsExactly("http_requests_total", "up");
            assertThat(connector.discoverMetrics("", 2)).extracting(MetricInfo::name).as("the limit counts the backend's names only")
                    .containsExactly("http_requests_total", "up");
        }
    }

    private static List<String> labelValueRequests(PrometheusWithSeries backend) {
        return backend.requests().stream().filter(r -> r.path().startsWith("/api/v1/label/"))
                .map(r -> r.query().containsKey("match[]") ? r.path() + " " + r.query().get("match[]") : r.path()).toList();
    }

    private PrometheusWithSeries started(List<Map<String, String>> series) throws IOException {
        PrometheusWithSeries backend = new PrometheusWithSeries(series);
        backends.add(backend);
        return backend;
    }

    private static PrometheusConnector connector(PrometheusWithSeries backend) throws ConnectorException {
        SourceConfig source = new SourceConfig("receiver", "prometheus", backend.url(), "", JsonObject.EMPTY_JSON_OBJECT);
        PrometheusConnectorFactory factory = new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ofMinutes(1));
        return (PrometheusConnector) factory.create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source))
                .toCompletableFuture().join();
    }

    /**
     * Label values as Prometheus answers them: every value of the label, or with {@code match[]} the values of the series
     * the selector matches ({@code =}, {@code !=}, {@code =~}, {@code !~}, regular expressions anchored); an invalid
     * regular expression is a 400 {@code bad_data}. No targets API, as a remote-write-only server; empty range answers.
     */
    private static final class PrometheusWithSeries extends FakeBackend {
        private static final Pattern LABEL_VALUES = Pattern.compile("/api/v1/label/([^/]+)/values");
        private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)(=~|!~|!=|=)\"((?:[^\"\\\\]|\\\\.)*)\"");

        private final List<Map<String, String>> series;

        PrometheusWithSeries(List<Map<String, String>> series) throws IOException {
            this.series = List.copyOf(series);
        }

        @Override
        protected Answer handle(Request request) {
            Matcher values = LABEL_VALUES.matcher(request.path());
            if (values.matches()) {
                try {
                    String selector = request.query().getOrDefault("match[]", "{}");
                    TreeSet<String> found = series.stream().filter(s -> matches(s, selector)).map(s -> s.get(values.group(1)))
                            .filter(v -> v != null).collect(Collectors.toCollection(TreeSet::new));
                    return Answer.json(200, "{\"status\":\"success\",\"data\":[" + found.stream().map(v -> "\"" + v + "\"")
                            .collect(Collectors.joining(",")) + "]}");
                } catch (PatternSyntaxException e) {
                    return Answer.json(400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid regexp\"}");
                }
            }
            if (request.path().equals("/api/v1/query_range")) {
                return Answer.json(200, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
            }
            if (request.path().equals("/api/v1/metadata")) {
                return Answer.json(200, "{\"status\":\"success\",\"data\":{}}");
            }
            return Answer.text(404, "404 page not found");
        }

        private static boolean matches(Map<String, String> labels, String selector) {
            Matcher m = MATCHER.matcher(selector);
            while (m.find()) {
                String value = labels.getOrDefault(m.group(1), "");
                String operand = m.group(3).replaceAll("\\\\(.)", "$1");
                boolean ok = switch (m.group(2)) {
                    case "=" -> value.equals(operand);
                    case "!=" -> !value.equals(operand);
                    case "=~" -> Pattern.compile(operand).matcher(value).matches();
                    default -> !Pattern.compile(operand).matcher(value).matches();
                };
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }
}
