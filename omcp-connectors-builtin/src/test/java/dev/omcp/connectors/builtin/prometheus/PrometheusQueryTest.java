package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.catalog.BuiltinConnectorCatalog;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** PromQL generation without a backend (the real-Prometheus tests are tagged backend). */
class PrometheusQueryTest {
    private static final TimeRange HOUR = TimeRange.ending(Instant.parse("2026-01-01T12:00:00Z"), Duration.ofHours(1));
    private final PrometheusConnector connector = new PrometheusConnector(
            new SourceConfig("p", "prometheus", "http://prom.example.com", "", JsonObject.EMPTY_JSON_OBJECT),
            HttpClient.newBuilder().build(), Duration.ofSeconds(1), Clock.systemUTC(), AnswerBudget.ofBytes(1 << 20), List.of("job"),
            Map.of("saturation", "max by ({{by}}) (x{{{selector}}}) / on() group_left count({{label}}={{service}})"), Duration.ofMinutes(1),
            PrometheusConnectorFactory.DEFAULT_SCRAPE_INTERVAL);

    private String promql(String service, String metric, List<String> by, Map<String, String> labels) throws ConnectorException {
        return connector.promql(new MetricQuery(service, metric, HOUR, Duration.ofSeconds(30), by, labels), "job", Duration.ofSeconds(30));
    }

    @Test
    void theResolvedLabel_isTheOneThatPickedTheSeries_containerForContainerOnlyCuratedMetrics() {
        assertThat(connector.identifyingLabel("cpu_utilization", "job")).isEqualTo("container");
        assertThat(connector.identifyingLabel("memory_utilization", "app")).isEqualTo("container");
        assertThat(connector.identifyingLabel("cpu", "job")).as("cpu selects by the service label first").isEqualTo("job");
        assertThat(connector.identifyingLabel("http_requests_total", "app")).isEqualTo("app");
    }

    @Test
    void aNamespacedServiceSelectsItsNameAndNamespace_unlessTheCallerFilteredANamespace() throws ConnectorException {
        PrometheusConnector.ServiceSelector shopPayments = new PrometheusConnector.ServiceSelector("job", "payments", Optional.of("shop"));
        MetricQuery plain = new MetricQuery("shop/payments", "memory", HOUR, Duration.ofSeconds(30), List.of(), Map.of());
        assertThat(connector.promql(plain, shopPayments, Duration.ofSeconds(30)))
                .contains("process_resident_memory_bytes{job=\"payments\",namespace=\"shop\"}");
        MetricQuery containers = new MetricQuery("shop/payments", "memory_utilization", HOUR, Duration.ofSeconds(30), List.of(), Map.of());
        assertThat(connector.promql(containers, shopPayments, Duration.ofSeconds(30)))
                .contains("container=\"payments\",namespace=\"shop\"").doesNotContain("shop/payments");
        MetricQuery filtered = new MetricQuery("shop/payments", "memory", HOUR, Duration.ofSeconds(30), List.of(), Map.of("namespace", "staging"));
        assertThat(connector.promql(filtered, shopPayments, Duration.ofSeconds(30)))
                .contains("{job=\"payments\",namespace=\"staging\"}").doesNotContain("\"shop\"");
        assertThat(connector.promql(plain, shopPayments, Duration.ofSeconds(30)))
                .as("the {{service}} placeholder is the name the label holds").doesNotContain("shop/payments");
    }

    @Test
    void curatedMetricsFillEveryPlaceholder() throws ConnectorException {
        String cpu = promql("api", "cpu", List.of("instance"), Map.of("env", "prod"));
        assertThat(cpu).startsWith("sum by (instance) (rate(process_cpu_seconds_total{job=\"api\",env=\"prod\"}[60s]))")
                .doesNotContain("{{");
        assertThat(promql("api", "latency_p99", List.of(), Map.of())).contains("sum by (le) (rate(http_request_duration_seconds_bucket{job=\"api\"}[60s]))");
        assertThat(promql("api", "latency_p50", List.of("pod"), Map.of())).contains("sum by (pod, le)");
        assertThat(promql("api", "saturation", List.of(), Map.of())).isEqualTo("max by () (x{job=\"api\"}) / on() group_left count(job=\"api\")");
    }

    @Test
    void aFallbackFamilyAnswersOnlyWhenTheFamiliesBeforeItHaveNoSamplesInTheWholeRange_soOneAnswerIsOneMeasurement()
            throws ConnectorException {
        // 'or' alone fills in per label set: with groupBy node, the kubelet's containers (no node label) were
        // summed into an extra series next to the kubelet's own CPU per node; and 'unless on() A' decided at each
        // step, so a gap in A showed B's different figure for those steps. The range guarded is the hour plus the
        // rate window, read once at the range's end
        String process = "sum by (node) (rate(process_cpu_seconds_total{job=\"kubelet\"}[60s]))";
        String containers = "sum by (node) (rate(container_cpu_usage_seconds_total{job=\"kubelet\"}[60s]))";
        assertThat(promql("kubelet", "cpu", List.of("node"), Map.of())).isEqualTo(process + " or (" + containers
                + " unless on() present_over_time(process_cpu_seconds_total{job=\"kubelet\"}[3660s] @ end()))");
        // a third family is guarded by both before it
        String prometheus = "sum by () (rate(http_requests_total{job=\"api\"}[60s]))";
        String micrometer = "sum by () (rate(http_server_requests_seconds_count{job=\"api\"}[60s]))";
        String otel = "sum by () (rate(http_server_request_duration_seconds_count{job=\"api\"}[60s]))";
        String prometheusInRange = "present_over_time(http_requests_total{job=\"api\"}[3660s] @ end())";
        String micrometerInRange = "present_over_time(http_server_requests_seconds_count{job=\"api\"}[3660s] @ end())";
        assertThat(promql("api", "request_rate", List.of(), Map.of())).isEqualTo(prometheus + " or (" + micrometer + " unless on() "
                + prometheusInRange + ") or (" + otel + " unless on() (" + prometheusInRange + " or " + micrometerInRange + "))");
        // a family that is a division is guarded by the samples of what it divides
        assertThat(promql("api", "latency_avg", List.of("route"), Map.of()))
                .contains(" unless on() present_over_time(http_request_duration_seconds_count{job=\"api\"}[3660s] @ end()))");
        // a quantile family by its +Inf bucket: present exactly when the buckets are, one series instead of one per bucket, and
        // not by _count, which a summary of the same name has without any bucket
        assertThat(promql("api", "latency_p99", List.of(), Map.of()))
                .contains(" unless on() present_over_time(http_request_duration_seconds_bucket{job=\"api\",le=\"+Inf\"}[3660s] @ end()))")
                .doesNotContain("present_over_time(http_request_duration_seconds_count");
        for (String metric : List.of("memory", "latency_p99", "latency_p50")) {
            String q = promql("api", metric, List.of("pod"), Map.of());
            assertThat(q.split(" or \\(", -1)).as(metric).hasSizeGreaterThan(1);
            assertThat(q.split(" unless on\\(\\) ", -1)).as(metric + ": every fallback is guarded")
                    .hasSize(q.split(" or \\(", -1).length);
        }
    }

    @Test
    void errorRate_isThe5xxOfEitherStatusLabel_overTheRequestsThatCarryOne_eachSeriesOnce_andAGroupWithoutErrorsIsZero()
            throws ConnectorException {
        // 'code 5xx or status 5xx' per group dropped a group's status-spelled 5xx whenever one series spelled it code;
        // a series carrying both labels is read by code (code="" selects the series without it), so it counts once
        String errors = "rate(http_requests_total{job=\"api\",code=~\"5..\"}[60s])"
                + " or rate(http_requests_total{job=\"api\",code=\"\",status=~\"5..\"}[60s])";
        String withStatus = "rate(http_requests_total{job=\"api\",code!=\"\"}[60s])"
                + " or rate(http_requests_total{job=\"api\",code=\"\",status!=\"\"}[60s])";
        assertThat(promql("api", "error_rate", List.of("pod"), Map.of())).isEqualTo("(sum by (pod) (" + errors + ")"
                + " or 0 * sum by (pod) (" + withStatus + ")) / sum by (pod) (" + withStatus + ")");
    }

    @Test
    void theUtilizationsReadTheLimitFromEitherSourcePerGroup_oneMeasurementWhereverTheLimitIsPublished() throws ConnectorException {
        assertThat(promql("api", "cpu_utilization", List.of("pod"), Map.of())).doesNotContain("unless");
        assertThat(promql("api", "memory_utilization", List.of("pod"), Map.of())).doesNotContain("unless");
    }

    @Test
    void utilizationMetricsDivideTheUsageOfTheContainersWithALimitByTheirLimits_bothSidesOverTheSameContainers()
            throws ConnectorException {
        // summing every container's usage over only the limited ones' limits counted unlimited containers' usage against
        // others' limits; and cAdvisor reports an unlimited CPU quota as -1, which made the share negative
        String containers = "{container=\"payments\",namespace=\"shop\"}";
        String cpuUsage = "rate(container_cpu_usage_seconds_total" + containers + "[60s])";
        String quota = "(container_spec_cpu_quota" + containers + " > 0) / container_spec_cpu_period" + containers;
        String cpuLimit = "kube_pod_container_resource_limits{container=\"payments\",namespace=\"shop\",resource=\"cpu\"} > 0";
        assertThat(promql("payments", "cpu_utilization", List.of("pod"), Map.of("namespace", "shop"))).isEqualTo(
                "sum by (pod) (" + cpuUsage + " and on(namespace, pod, container) (" + quota + "))"
                        + " / sum by (pod) ((" + quota + ") and on(namespace, pod, container) " + cpuUsage + ")"
                        + " or sum by (pod) (" + cpuUsage + " and on(namespace, pod, container) (" + cpuLimit + "))"
                        + " / sum by (pod) ((" + cpuLimit + ") and on(namespace, pod, container) " + cpuUsage + ")");
        String workingSet = "container_memory_working_set_bytes{container=\"payments\"}";
        String memoryLimit = "container_spec_memory_limit_bytes{container=\"payments\"} > 0";
        String ksmLimit = "kube_pod_container_resource_limits{container=\"payments\",resource=\"memory\"} > 0";
        assertThat(promql("payments", "memory_utilization", List.of(), Map.of())).isEqualTo(
                "sum by () (" + workingSet + " and on(namespace, pod, container) (" + memoryLimit + "))"
                        + " / sum by () ((" + memoryLimit + ") and on(namespace, pod, container) " + workingSet + ")"
                        + " or sum by () (" + workingSet + " and on(namespace, pod, container) (" + ksmLimit + "))"
                        + " / sum by () ((" + ksmLimit + ") and on(namespace, pod, container) " + workingSet + ")");
        // the container name is quoted like every other value
        assertThat(promql("a\"} or vector(1) #", "memory_utilization", List.of(), Map.of()))
                .contains("container=\"a\\\"} or vector(1) #\"");
    }

    @Test
    void valuesAreQuotedSoTheyCannotEndTheString() throws ConnectorException {
        String q = promql("a\"}) or vector(1) #\\", "memory", List.of(), Map.of("route", "x\"\n\\y"));
        assertThat(q).contains("job=\"a\\\"}) or vector(1) #\\\\\"").contains("route=\"x\\\"\\n\\\\y\"");
        assertThat(QueryText.quote("\u0007")).isEqualTo("\"\\u0007\"");
    }

    @Test
    void aValueThatSpellsAPlaceholder_staysTheValue_andCannotEndItsString() throws ConnectorException {
        // the values are filled into the template: a placeholder inside one is the caller's text, never filled in turn
        String q = promql("api", "saturation", List.of("pod"), Map.of("path", "/x/{{service}}", "route", "{{window}}{{by}}{{label}}"));

        assertThat(q).isEqualTo("max by (pod) (x{job=\"api\",path=\"/x/{{service}}\",route=\"{{window}}{{by}}{{label}}\"})"
                + " / on() group_left count(job=\"api\")");
        assertThat(promql("api", "latency_p99", List.of(), Map.of("path", "{{by_le}}")))
                .contains("path=\"{{by_le}}\"").contains("sum by (le)");
    }

    @Test
    void theGatewaysOwnAnomalySeries_mergeTheReplicasThatWroteThem_insteadOfSummingTheirScores() throws ConnectorException {
        // OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS: replicas write one series each; a sum would add two judgements of one moment
        assertThat(promql("api", "omcp_anomaly_score", List.of("signal"), Map.of()))
                .isEqualTo("max by (signal) (omcp_anomaly_score{job=\"api\"})");
        assertThat(promql("api", "omcp_anomaly_detected", List.of("signal"), Map.of()))
                .isEqualTo("max by (signal) (omcp_anomaly_detected{job=\"api\"})");
        assertThat(promql("api", "omcp_anomaly_level_above_largest_bucket", List.of("signal"), Map.of()))
                .isEqualTo("max by (signal) (omcp_anomaly_level_above_largest_bucket{job=\"api\"})");
        assertThat(promql("api", "omcp_anomaly_onset_timestamp_seconds", List.of("signal"), Map.of()))
                .as("the earliest onset any replica dated")
                .isEqualTo("min by (signal) (omcp_anomaly_onset_timestamp_seconds{job=\"api\"})");
        assertThat(promql("api", "omcp_anomaly_score", List.of(), Map.of()))
                .as("without groupBy: one series per series the gateway writes, the replicas merged")
                .isEqualTo("max by (service, signal, tenant) (omcp_anomaly_score{job=\"api\"})");
        assertThat(promql("api", "omcp_anomaly_scores", List.of("signal"), Map.of())).as("only the gateway's own series")
                .isEqualTo("sum by (signal) (omcp_anomaly_scores{job=\"api\"})");
    }

    @Test
    void theTenantTheCoreHandsOverForTheGatewaysAnomalySeries_isAnExactMatcher_andAnEmptyOneSelectsTheSeriesWithoutTheLabel()
            throws ConnectorException {
        // the core keeps a caller to its tenant's scores (TenantAnomalySeries); the connector applies the filter as any other
        assertThat(promql("payments", "omcp_anomaly_score", List.of("signal"), Map.of("tenant", "acme")))
                .isEqualTo("max by (signal) (omcp_anomaly_score{job=\"payments\",tenant=\"acme\"})");
        assertThat(promql("payments", "omcp_anomaly_score", List.of("signal"), Map.of("tenant", "")))
                .as("a caller without a tenant: the scores written without the label")
                .isEqualTo("max by (signal) (omcp_anomaly_score{job=\"payments\",tenant=\"\"})");
    }

    @Test
    void rawMetricNamesAreAllowedPromqlIsNot() throws ConnectorException {
        assertThat(promql("api", "up", List.of(), Map.of())).isEqualTo("up{job=\"api\"}");
        assertThat(promql("api", "up", List.of("instance"), Map.of())).isEqualTo("sum by (instance) (up{job=\"api\"})");
        assertThatThrownBy(() -> promql("api", "up or vector(1)", List.of(), Map.of())).isInstanceOf(ConnectorException.class)
                .hasMessageContaining("curated");
    }

    @Test
    void aRefusedMetricIsQuotedOnOneLine_withBidiAndInvisibleCharactersShownAsQuestionMarks() {
        assertThatThrownBy(() -> promql("api", "up\u202e)1(rotcev ro\u200b\n", List.of(), Map.of()))
                .isInstanceOf(ConnectorException.class)
                .hasMessageStartingWith("metric 'up?)1(rotcev ro??' is neither a curated metric");
    }

    @Test
    void theRateWindowCoversFourScrapesOfTheSourcesScrapeInterval_soAMinuteScrapeStillHasSamplesToRate() throws Exception {
        try (PrometheusConnector minute = withSettings(Json.createObjectBuilder().add("scrapeInterval", "1m").build());
                PrometheusConnector compound = withSettings(Json.createObjectBuilder().add("scrapeInterval", "1m30s").build())) {
            // a 30 s step would give a 1m window: one sample of a target scraped every minute, and rate() answers nothing
            assertThat(minute.promql(new MetricQuery("api", "cpu", HOUR, Duration.ofSeconds(30), List.of(), Map.of()), "job",
                    Duration.ofSeconds(30))).contains("process_cpu_seconds_total{job=\"api\"}[240s]").doesNotContain("[60s]");
            assertThat(minute.promql(new MetricQuery("api", "cpu", HOUR, Duration.ofMinutes(5), List.of(), Map.of()), "job",
                    Duration.ofMinutes(5))).as("a wide step still rates over two steps").contains("[600s]");
            assertThat(compound.promql(new MetricQuery("api", "cpu", HOUR, Duration.ofSeconds(30), List.of(), Map.of()), "job",
                    Duration.ofSeconds(30))).contains("[360s]");
        }
        // the default, 15s, keeps the window it always had: twice the step, at least 1m
        assertThat(promql("api", "cpu", List.of(), Map.of())).contains("[60s]");
        assertThat(connector.promql(new MetricQuery("api", "cpu", HOUR, Duration.ofMinutes(2), List.of(), Map.of()), "job",
                Duration.ofMinutes(2))).contains("[240s]");
    }

    @Test
    void aSourceWithoutItsOwnScrapeInterval_takesTheGatewaysDefault_soAPrometheusUrlSourceCanSayItToo() throws Exception {
        // PROMETHEUS_SCRAPE_INTERVAL reaches the catalog: a source from PROMETHEUS_URL has no entry to say scrapeInterval in
        BuiltinConnectorCatalog catalog = new BuiltinConnectorCatalog(List.of("job"), Duration.ofMinutes(1), List.of("app"),
                Duration.ofMinutes(1), Duration.ofMinutes(5));
        ConnectorFactory factory = catalog.find("prometheus").orElseThrow().factory();
        MetricQuery cpu = new MetricQuery("api", "cpu", HOUR, Duration.ofSeconds(30), List.of(), Map.of());
        try (PrometheusConnector fromEnvironment = create(factory, JsonObject.EMPTY_JSON_OBJECT);
                PrometheusConnector ownSetting = create(factory, Json.createObjectBuilder().add("scrapeInterval", "15s").build())) {
            assertThat(fromEnvironment.promql(cpu, "job", Duration.ofSeconds(30))).contains("[240s]");
            assertThat(ownSetting.promql(cpu, "job", Duration.ofSeconds(30))).as("a source's own setting wins").contains("[60s]");
        }
        assertThat(((PrometheusConnectorFactory) BuiltinConnectorCatalog.withDefaults().find("prometheus").orElseThrow().factory())
                .defaultScrapeInterval()).isEqualTo(Duration.ofSeconds(15));
        assertThat(PrometheusConnectorFactory.scrapeInterval("1m30s")).contains(Duration.ofSeconds(90));
        for (String bad : new String[] {"0s", "2h", "15", "fast", ""}) {
            assertThat(PrometheusConnectorFactory.scrapeInterval(bad)).as(bad).isEmpty();
        }
        assertThatThrownBy(() -> new PrometheusConnectorFactory(List.of("job"), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static PrometheusConnector create(ConnectorFactory factory, JsonObject settings) throws Exception {
        SourceConfig source = new SourceConfig("p", "prometheus", "http://prom.example.com", "", settings);
        return (PrometheusConnector) factory.create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source))
                .toCompletableFuture().get();
    }

    @Test
    void aScrapeIntervalThatIsNoDurationOrOutOfRange_isRefusedNamingTheSettingAndTheForm() {
        for (String bad : new String[] {"fast", "0s", "500ms", "2h", "15", "-1m", " 15s"}) {
            assertThatThrownBy(() -> withSettings(Json.createObjectBuilder().add("scrapeInterval", bad).build()))
                    .as(bad).hasRootCauseInstanceOf(ConnectorException.class)
                    .rootCause().hasMessageStartingWith("scrapeInterval must be")
                    .hasMessageContaining("for example 15s or 1m");
        }
        assertThatThrownBy(() -> withSettings(Json.createObjectBuilder().add("scrapeInterval", 60).build()))
                .rootCause().hasMessageStartingWith("scrapeInterval must be");
    }

    @Test
    void dottedOpenTelemetryMetricNames_areSelectedByAQuotedName_thatOlderServersParseToo() throws ConnectorException {
        // Prometheus 3 stores UTF-8 names; {__name__="..."} selects them there and is valid PromQL on 2.x as well
        assertThat(promql("api", "http.server.request.duration", List.of(), Map.of()))
                .isEqualTo("{__name__=\"http.server.request.duration\",job=\"api\"}");
        assertThat(promql("api", "k8s.pod/cpu-time_seconds_total", List.of("pod"), Map.of("env", "prod")))
                .isEqualTo("sum by (pod) ({__name__=\"k8s.pod/cpu-time_seconds_total\",job=\"api\",env=\"prod\"})");
        // legacy names read as they always did
        assertThat(promql("api", "up", List.of(), Map.of())).isEqualTo("up{job=\"api\"}");
    }

    @Test
    void openTelemetryLabelNames_areWrittenQuoted_asPrometheus3ParsesThem_whileClassicNamesStayBare() throws ConnectorException {
        // Prometheus 3 stores OTel attributes as labels with dots; {"http.route"="/x"} and by ("http.route") select them there
        assertThat(promql("api", "http_requests_total", List.of("http.route", "pod"), Map.of("service.name", "shop", "env", "prod")))
                .isEqualTo("sum by (\"http.route\", pod) (http_requests_total{job=\"api\",env=\"prod\",\"service.name\"=\"shop\"})");
        assertThat(promql("api", "latency_p99", List.of("http.route"), Map.of("k8s.pod/name-x", "p")))
                .contains("sum by (\"http.route\", le) (rate(http_request_duration_seconds_bucket{job=\"api\","
                        + "\"k8s.pod/name-x\"=\"p\"}[60s]))");
        assertThat(promql("api", "cpu_utilization", List.of(), Map.of("http.route", "/x")))
                .contains("container_cpu_usage_seconds_total{container=\"api\",\"http.route\"=\"/x\"}");
        // nothing changes for the names every server parses
        assertThat(promql("api", "http_requests_total", List.of("instance"), Map.of("code", "500")))
                .isEqualTo("sum by (instance) (http_requests_total{job=\"api\",code=\"500\"})");
    }

    @Test
    void aDottedServiceLabel_isWrittenQuotedWhereverTheQueryNamesIt() throws ConnectorException {
        MetricQuery raw = new MetricQuery("api", "up", HOUR, Duration.ofSeconds(30), List.of(), Map.of());
        assertThat(connector.promql(raw, "service.name", Duration.ofSeconds(30))).isEqualTo("up{\"service.name\"=\"api\"}");
        MetricQuery custom = new MetricQuery("api", "saturation", HOUR, Duration.ofSeconds(30), List.of(), Map.of());
        assertThat(connector.promql(custom, "service.name", Duration.ofSeconds(30)))
                .isEqualTo("max by () (x{\"service.name\"=\"api\"}) / on() group_left count(\"service.name\"=\"api\")");
    }

    @Test
    void theLabelValuesPath_escapesANameThatIsNotClassic_asPrometheus3ReadsIt() {
        assertThat(QueryText.labelValuesPathName("job")).isEqualTo("job");
        assertThat(QueryText.labelValuesPathName("service_name")).as("classic names stay as they are").isEqualTo("service_name");
        assertThat(QueryText.labelValuesPathName("service.name")).isEqualTo("U__service_2e_name");
        assertThat(QueryText.labelValuesPathName("k8s.pod_name")).isEqualTo("U__k8s_2e_pod__name");
        assertThat(QueryText.labelValuesPathName("a/b-c")).as("a '/' would split the path").isEqualTo("U__a_2f_b_2d_c");
    }

    @Test
    void labelNamesThatAreQueryLanguageOrUnbounded_areRefusedBeforeAnyCall() {
        for (String bad : new String[] {"a\"b", "a b", "x) or vector(1", "x}", "1x", ".x", "-x", "a\nb", "a=b", "x".repeat(129),
                "a.b\u202e", "é"}) {
            assertThatThrownBy(() -> connector.queryMetrics(new MetricQuery("api", "cpu", HOUR, Duration.ofSeconds(30), List.of(bad),
                    Map.of()))).as(bad).isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                    .hasMessageContaining("groupBy label").hasMessageContaining("is not a label name");
            assertThatThrownBy(() -> connector.queryMetrics(new MetricQuery("api", "cpu", HOUR, Duration.ofSeconds(30), List.of(),
                    Map.of(bad, "v")))).as(bad).isInstanceOf(ConnectorException.class).hasMessageContaining("label filter");
        }
    }

    @Test
    void metricNamesThatAreQueryLanguageOrUnbounded_areStillRefused() {
        for (String bad : new String[] {"rate(x[5m])", "x{job=\"api\"}", "up or vector(1)", "a\"b", "a b", "a\nb", ".leading",
                "x".repeat(301), "a.b\u202e", "a.b\u200b"}) {
            assertThatThrownBy(() -> promql("api", bad, List.of(), Map.of())).as(bad).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("neither a curated metric");
        }
    }

    private static PrometheusConnector withSettings(JsonObject settings) throws Exception {
        SourceConfig source = new SourceConfig("p", "prometheus", "http://prom.example.com", "", settings);
        return (PrometheusConnector) new PrometheusConnectorFactory(List.of("job"), Duration.ofMinutes(1))
                .create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().get();
    }

    @Test
    void theStepIsWidenedToCapPoints() {
        assertThat(QueryText.step(Duration.ofDays(7), Duration.ofSeconds(15), 1000)).isEqualTo(Duration.ofSeconds(605));
        assertThat(QueryText.step(Duration.ofHours(1), Duration.ofSeconds(15), 1000)).isEqualTo(Duration.ofSeconds(15));
        assertThat(QueryText.step(Duration.ofMinutes(5), Duration.ofMillis(10), 1000)).isEqualTo(Duration.ofSeconds(1));
    }
}
