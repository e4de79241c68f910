package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryMetricsToolTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);

    private QueryMetricsTool tool(InMemorySources sources) {
        return tool(Toolkit.builder(sources.registry(), clock));
    }

    private static QueryMetricsTool tool(Toolkit.Builder builder) {
        return new QueryMetricsTool(builder.build());
    }

    @Test
    void aSourceThatWarnsAlongsideItsAnswer_isShownWithItsWarnings_andTheNoteSaysTheDataMayBeIncomplete() {
        FakeMetricsBackend thanos = new FakeMetricsBackend("thanos").serve("payments", "error_rate", noisy(0.02, 0.1))
                .warning("No StoreAPIs matched for this query", "info: metric might not be a counter");
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "error_rate", noisy(0.02, 0.1));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(thanos).add(prom)),
                "{\"service\":\"payments\",\"metric\":\"error_rate\"}");

        assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("thanos");
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString))
                    .containsExactly("No StoreAPIs matched for this query", "info: metric might not be a counter");
        });
        assertThat(result.getBoolean("partial")).as("every source answered").isFalse();
        assertThat(result.getString("note")).contains("warned alongside its answer (see backendWarnings)");
    }

    @Test
    void aSourcesWarning_isRedactedLikeLogLines_unlessRedactionIsOff() {
        String leaking = "store gateway 10.20.30.40 refused: Authorization: Bearer s3cr3t-thanos-token-0123456789";
        FakeMetricsBackend thanos = new FakeMetricsBackend("thanos").serve("payments", "error_rate", noisy(0.02, 0.1)).warning(leaking);
        InMemorySources sources = new InMemorySources().add(thanos);
        String args = "{\"service\":\"payments\",\"metric\":\"error_rate\"}";

        String shown = ToolHarness.ok(tool(sources), args).getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings")
                .getString(0);
        assertThat(shown).startsWith("store gateway ").contains("[REDACTED:ipv4]", "[REDACTED:bearer_token]")
                .doesNotContain("10.20.30.40", "s3cr3t-thanos-token");
        assertThat(ToolHarness.ok(tool(Toolkit.builder(sources.registry(), clock).redaction(false)), args).getJsonArray("backendWarnings")
                .getJsonObject(0).getJsonArray("warnings").getString(0)).as("OMCP_REDACTION=off").isEqualTo(leaking);
    }

    @Test
    void aCuratedMetricComesBackAsStatisticsWithTheResolvedQueryAndLabel() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "error_rate", noisy(0.02, 0.1));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"payments\",\"metric\":\"error_rate\"}");

        // spec 4.4: query_metrics responses carry resolvedSeries and resolvedLabel
        assertThat(result.getString("resolvedSeries")).isEqualTo("error_rate{job=\"payments\"}");
        assertThat(result.getString("resolvedLabel")).isEqualTo("job");
        assertThat(result.getString("unit")).isEqualTo("ratio");
        assertThat(result.getString("duration")).isEqualTo("1h");
        assertThat(result.getString("step")).isEqualTo("15s");
        assertThat(result.getString("from")).isEqualTo("2026-03-10T11:00:00Z");
        assertThat(result.getString("to")).isEqualTo("2026-03-10T12:00:00Z");
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getJsonArray("sources").getString(0)).isEqualTo("prom");
        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        assertThat(series.getString("source")).isEqualTo("prom");
        assertThat(series.getInt("points")).isEqualTo(241);
        assertThat(series.getJsonNumber("avg").doubleValue()).isCloseTo(0.02, within(0.002));
        assertThat(series.getJsonNumber("min").doubleValue()).isBetween(0.018, 0.02);
        assertThat(series.getJsonNumber("max").doubleValue()).isBetween(0.02, 0.022);
        assertThat(series.getString("lastAt")).isEqualTo("2026-03-10T12:00:00Z");
        assertThat(series.getJsonObject("downsampled").getJsonArray("values")).hasSizeLessThanOrEqualTo(60);
        assertThat(result.containsKey("note")).isFalse();

        MetricQuery sent = prom.queries.getFirst();
        assertThat(sent.range().length()).isEqualTo(Duration.ofHours(1));
        assertThat(sent.step()).isEqualTo(Duration.ofSeconds(15));
        assertThat(sent.groupBy()).isEmpty();
    }

    @Test
    void valuesAreAveragedIntoAtMostPointsBucketsSoTheOutputStaysSmall() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "latency_p99", noisy(0.25, 0.2));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"api\",\"metric\":\"latency_p99\",\"duration\":\"1d\",\"points\":12}");
        JsonObject downsampled = result.getJsonArray("series").getJsonObject(0).getJsonObject("downsampled");
        assertThat(downsampled.getJsonArray("values")).hasSize(12);
        assertThat(downsampled.getInt("stepSeconds")).isEqualTo(7200);
        for (JsonValue v : downsampled.getJsonArray("values")) {
            assertThat(((jakarta.json.JsonNumber) v).doubleValue()).isCloseTo(0.25, within(0.05));
        }
        // a day at the default resolution: 1d / 240 = 6 minutes
        assertThat(prom.queries.getFirst().step()).isEqualTo(Duration.ofMinutes(6));
    }

    @Test
    void groupByLabelsAndStepArePassedToTheBackendAndRawMetricNamesAreAccepted() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "http_requests_total", Map.of("pod", "api-1"), noisy(10, 0.05))
                .serve("api", "http_requests_total", Map.of("pod", "api-2"), noisy(30, 0.05));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), """
                {"service":"api","metric":"http_requests_total","duration":"30m","step":"1m","groupBy":["pod"],
                 "labels":{"namespace":"prod"}}""");
        MetricQuery sent = prom.queries.getFirst();
        assertThat(sent.groupBy()).containsExactly("pod");
        assertThat(sent.labels()).containsExactly(Map.entry("namespace", "prod"));
        assertThat(sent.step()).isEqualTo(Duration.ofMinutes(1));
        assertThat(result.containsKey("unit")).as("a raw metric's unit is the backend's").isFalse();
        // highest average first
        assertThat(result.getJsonArray("series").getJsonObject(0).getJsonObject("labels").getString("pod")).isEqualTo("api-2");
        assertThat(result.getInt("totalSeries")).isEqualTo(2);
        assertThat(result.getBoolean("truncated")).isFalse();
    }

    @Test
    void openTelemetryMetricNamesWithDotsDashesAndSlashes_areAccepted_asPrometheus3StoresThem() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "http.server.request.duration", noisy(0.2, 0.05))
                .serve("api", "k8s.pod/cpu-time", noisy(1, 0.05));
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));

        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"http.server.request.duration\"}")
                .getJsonArray("series")).hasSize(1);
        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"k8s.pod/cpu-time\"}").getJsonArray("series")).hasSize(1);
        // the same names reach detect_anomalies, whose metrics share the schema
        ToolHarness.ok(new DetectAnomaliesTool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).build()),
                "{\"service\":\"api\",\"metrics\":[\"http.server.request.duration\"]}");
        // still no query language, no spaces, no unbounded names
        for (String bad : new String[] {"sum(up)", "x{job=\\\"api\\\"}", "up or vector(1)", "x".repeat(301), ".x", "a\\u202eb"}) {
            assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"" + bad + "\"}")).as(bad)
                    .contains("arguments.metric: must match");
        }
    }

    @Test
    void openTelemetryLabelNames_areAcceptedInGroupByAndLabels_andReachTheBackendAsGiven() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "http.server.request.duration", Map.of("http.route", "/pay"), noisy(0.2, 0.05));
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));
        JsonObject result = ToolHarness.ok(tool, """
                {"service":"api","metric":"http.server.request.duration","groupBy":["http.route","k8s.pod/name-x"],
                 "labels":{"service.name":"shop","deployment.environment":"prod"}}""");
        MetricQuery sent = prom.queries.getFirst();
        assertThat(sent.groupBy()).containsExactly("http.route", "k8s.pod/name-x");
        assertThat(sent.labels()).containsOnly(Map.entry("service.name", "shop"), Map.entry("deployment.environment", "prod"));
        assertThat(result.getJsonArray("series").getJsonObject(0).getJsonObject("labels").getString("http.route")).isEqualTo("/pay");
        // still nothing that could be query language, and still bounded
        for (String bad : new String[] {"a b", "x)", "a\\\"b", "1x", ".x", "x".repeat(129), "a=b", "é"}) {
            assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"groupBy\":[\"" + bad + "\"]}")).as(bad)
                    .contains("arguments.groupBy[0]: must match");
            assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"labels\":{\"" + bad + "\":\"v\"}}")).as(bad)
                    .contains("(the name): must match");
        }
    }

    @Test
    void aGroupByLabelNoSeriesCarries_isSaid_notQuietlyIgnored() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "http_requests_total", Map.of("pod", "api-1"), noisy(10, 0.05));
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"http_requests_total\",\"groupBy\":[\"pod\",\"nonexistent\"]}")
                .getString("note")).isEqualTo("No series has the label nonexistent, so the answer is not split by it; the series' labels "
                        + "show what there is to group by.");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"http_requests_total\",\"groupBy\":[\"pod\"]}")
                .containsKey("note")).isFalse();
    }

    @Test
    void aWindowLongerThanTheData_saysWhereTheDataStarts() {
        // the fake serves every step of any window; a series that begins late is what a short retention looks like
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "up", t -> 1);
        JsonObject full = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\",\"metric\":\"up\",\"duration\":\"1h\"}");
        assertThat(full.containsKey("note")).as("data from the start: nothing to say").isFalse();
        prom.retainedFrom(NOW.minus(Duration.ofDays(3)));
        JsonObject week = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\",\"metric\":\"up\",\"duration\":\"7d\"}");
        assertThat(week.getString("note")).startsWith("The data starts at 2026-03-07T12:").contains(", 4d 0h after the window's start: "
                + "the sources hold nothing earlier (no data, not zero).");
        assertThat(QueryMetricsTool.roughly(Duration.ofMinutes(3 * 1440 + 250))).isEqualTo("3d 4h");
        assertThat(QueryMetricsTool.roughly(Duration.ofMinutes(320))).isEqualTo("5h 20m");
        assertThat(QueryMetricsTool.roughly(Duration.ofMinutes(45))).isEqualTo("45m");
    }

    @Test
    void moreSeriesThanTheLimitAreCutHighestAverageFirstAndSaidSo() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom");
        for (int i = 1; i <= 5; i++) {
            prom.serve("api", "up", Map.of("instance", "i" + i), noisy(i, 0));
        }
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\",\"metric\":\"up\",\"limit\":2}");
        assertThat(result.getJsonArray("series")).hasSize(2);
        assertThat(result.getJsonArray("series").getJsonObject(0).getJsonObject("labels").getString("instance")).isEqualTo("i5");
        assertThat(result.getInt("totalSeries")).isEqualTo(5);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("5 series matched", "showing the 2");
    }

    @Test
    void gapsAreCountedAndNeverReadAsZero() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("api", "error_rate", t -> (t / 15_000) % 2 == 0 ? Double.NaN : 0.5);
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));
        JsonObject series = ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"error_rate\",\"duration\":\"10m\"}")
                .getJsonArray("series").getJsonObject(0);
        assertThat(series.getInt("gaps")).isEqualTo(21);
        // the output schema names every member a series carries, gaps included
        assertThat(tool.definition().outputSchema().orElseThrow().getJsonObject("properties").getJsonObject("series")
                .getJsonObject("items").getJsonObject("properties").keySet()).containsAll(series.keySet());
        assertThat(series.getInt("points")).isEqualTo(20);
        assertThat(series.getJsonNumber("min").doubleValue()).isEqualTo(0.5);
        assertThat(series.getJsonNumber("avg").doubleValue()).isEqualTo(0.5);
    }

    @Test
    void aSeriesOfOnlyGapsHasANoteInsteadOfNumbers() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "error_rate", t -> Double.NaN);
        JsonObject series = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"api\",\"metric\":\"error_rate\"}")
                .getJsonArray("series").getJsonObject(0);
        assertThat(series.getInt("points")).isZero();
        assertThat(series.containsKey("avg")).isFalse();
        assertThat(series.getString("note")).contains("only gaps");
    }

    @Test
    void theCatalogEntryIsAttachedWhenTheCatalogListsTheService() {
        // spec 2.11: query_metrics carries .catalog
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "cpu", noisy(0.4, 0.1));
        JsonObject document = Jsonp.reader("{\"services\":{\"payments\":{\"owner\":\"team-pay\",\"tier\":1,\"onCall\":\"pay-oncall\"}}}")
                .readObject();
        ServiceCatalog catalog = ((ServiceCatalog.Parsed.Loaded) ServiceCatalog.parse(document)).catalog();
        QueryMetricsTool withCatalog = tool(Toolkit.builder(new InMemorySources().add(prom).registry(), clock).catalog(catalog));

        JsonObject result = ToolHarness.ok(withCatalog, "{\"service\":\"payments\",\"metric\":\"cpu\"}");
        assertThat(result.getJsonObject("catalog").getString("owner")).isEqualTo("team-pay");
        assertThat(ToolHarness.ok(withCatalog, "{\"service\":\"other\",\"metric\":\"cpu\"}").containsKey("catalog")).isFalse();
    }

    @Test
    void aServiceNoSourceKnowsHasNullResolutionsAndANotePointingToListServices() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "cpu", noisy(0.4, 0.1));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"paymnets\",\"metric\":\"cpu\"}");
        assertThat(result.isNull("resolvedSeries")).isTrue();
        assertThat(result.isNull("resolvedLabel")).isTrue();
        assertThat(result.getJsonArray("series")).isEmpty();
        assertThat(result.getString("note")).contains("No metrics source knows a service named 'paymnets'", "list_services")
                .contains("Did you mean 'payments'?");
    }

    @Test
    void aKnownServiceWithoutTheMetricSaysSoInsteadOfReturningZero() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("batch/nightly");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"batch/nightly\",\"metric\":\"latency_p99\"}");
        assertThat(result.getString("resolvedLabel")).isEqualTo("job");
        assertThat(result.getJsonArray("series")).isEmpty();
        assertThat(result.getString("note")).contains("'batch/nightly' exists (label job) but has no series for latency_p99");
    }

    @Test
    void aMisspelledMetric_getsTheNameItMostLikelyMeant_curatedOrTheServicesOwn() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("payments", "http_requests_total", t -> 5)
                .serve("payments", "http_request_duration_seconds_bucket", t -> 1)
                .serve("payments", "process_cpu_seconds_total", t -> 1)
                .serve("checkout", "http_requests_totals", t -> 1);
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"http_requests_totl\"}").getString("note"))
                .as("only the service's own names count: checkout's http_requests_totals is not offered")
                .endsWith("Did you mean 'http_requests_total'?");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"eror_rate\"}").getString("note"))
                .endsWith("Did you mean the curated metric 'error_rate'?");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"request_duration_p95\"}").getString("note"))
                .contains("Its metrics with similar names: http_request_duration_seconds_bucket, http_requests_total.",
                        "Curated names work for every service: cpu,", "request_rate");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"kafka_lag\"}").getString("note"))
                .endsWith("Or one of its own: http_request_duration_seconds_bucket, http_requests_total, process_cpu_seconds_total.");
        for (int i = 0; i < 10; i++) {
            prom.serve("payments", "jvm_metric_" + i, t -> 1);
        }
        assertThat(ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"kafka_lag\"}").getString("note"))
                .endsWith("Or use one of the backend's own metric names (13 found for 'payments').");
    }

    @Test
    void nameSuggestions_fromADiscoveryThatWarned_showItsWarnings_andSayTheNamesMayBeIncomplete() {
        // a name the discovery could not list (a store not asked, a name too long to keep) is not offered: the agent must know
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "http_requests_total", t -> 5)
                .discoveryWarning("metric names: store eu-1 did not answer");
        FakeMetricsBackend other = new FakeMetricsBackend("other").knows("payments");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom).add(other)),
                "{\"service\":\"payments\",\"metric\":\"http_requests_totl\"}");

        assertThat(result.getString("note")).contains("Did you mean 'http_requests_total'?")
                .endsWith(" The metric names these suggestions come from may be incomplete: a source's metric discovery warned "
                        + "(see backendWarnings).")
                .doesNotContain("warned alongside its answer");
        assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("prom");
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString))
                    .containsExactly("metric names: store eu-1 did not answer");
        });
    }

    @Test
    void aDiscoveryWarning_joinsTheSeriesWarningsOfItsSource_inOneEntry_redactedAlike() {
        FakeMetricsBackend thanos = new FakeMetricsBackend("thanos").knows("payments").warning("No StoreAPIs matched for this query")
                .discoveryWarning("metric names: store 10.20.30.40 did not answer");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(thanos)), "{\"service\":\"payments\",\"metric\":\"kafka_lag\"}");

        assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("thanos");
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString))
                    .containsExactly("No StoreAPIs matched for this query", "metric names: store [REDACTED:ipv4] did not answer");
        });
        assertThat(result.getString("note")).contains("warned alongside its answer", "may be incomplete: a source's metric discovery");
    }

    @Test
    void nameSuggestionsNeverAsked_leaveADiscoveryWarningUnshown() {
        // the series answered: no discovery ran, so nothing it might have said is shown
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "http_requests_total", t -> 5)
                .discoveryWarning("metric names: store eu-1 did not answer");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"payments\",\"metric\":\"http_requests_total\"}");

        assertThat(result.containsKey("backendWarnings")).isFalse();
        assertThat(prom.discoveries).isEmpty();
    }

    @Test
    void aCuratedMetricTheServiceCannotFeed_saysWhatItIsComputedFrom_notThatCuratedNamesAlwaysWork() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom")
                .serve("kubelet", "process_cpu_seconds_total", t -> 1)
                .serve("kubelet", "kubelet_running_pods", t -> 12);
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"kubelet\",\"metric\":\"error_rate\"}").getString("note"))
                .doesNotContain("Curated names work for every service")
                .endsWith("The curated error_rate is computed from an HTTP request counter, and 'kubelet' exports none that it knows."
                        + " Its own metrics: kubelet_running_pods, process_cpu_seconds_total.");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"kubelet\",\"metric\":\"latency_p99\"}").getString("note"))
                .contains("computed from a request-duration histogram or summary");
    }

    @Test
    void anEmptyAnswerUnderLabelFilters_pointsAtTheFilters_notAtTheName() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("payments", "http_requests_total", t -> 5);
        String note = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"payments\",\"metric\":\"kafka_lag\",\"labels\":{\"namespace\":\"nope\"}}").getString("note");
        assertThat(note).endsWith("Ask again without labels to see whether the filters are what matched nothing.")
                .doesNotContain("similar names");
    }

    @Test
    void metricSuggestions_areLeftOutWhenDiscoveryFails_theAnswerStillComes() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").knows("payments");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)), "{\"service\":\"payments\",\"metric\":\"kafka_lag\"}");
        assertThat(result.getString("note")).contains("has no series for kafka_lag", "Curated names work for every service")
                .endsWith("Or use one of the backend's own metric names.");
    }

    @Test
    void withoutAMetricsSourceTheNoteSaysWhatToConfigure() {
        JsonObject result = ToolHarness.ok(tool(new InMemorySources()), "{\"service\":\"api\",\"metric\":\"cpu\"}");
        assertThat(result.getJsonArray("series")).isEmpty();
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).contains("No connected source can answer metric queries", "PROMETHEUS_URL");

    }

    @Test
    void aStepTheSourceWidened_isTheStepReported_andTheNoteSaysSo() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "cpu", noisy(1, 0.1)).widensBeyond(1000);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"1d\",\"step\":\"15s\"}");

        assertThat(result.getString("step")).isEqualTo("86s");
        assertThat(result.getString("requestedStep")).isEqualTo("15s");
        assertThat(result.getString("note")).contains("The source widened the step from 15s to 86s")
                .contains("a limited number of points per series");

        JsonObject asAsked = ToolHarness.ok(tool(new InMemorySources().add(prom)),
                "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"1h\",\"step\":\"15s\"}");
        assertThat(asAsked.getString("step")).isEqualTo("15s");
        assertThat(asAsked.containsKey("requestedStep")).as("echoed only when widened").isFalse();
        assertThat(asAsked.containsKey("note")).isFalse();
    }

    @Test
    void aSourceThatDoesNotExistOrCannotAnswerMetrics_isRefusedNamingTheOnesThatCan() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "cpu", noisy(1, 0));
        QueryMetricsTool tool = tool(new InMemorySources().add(prom).add(new FakeLogsBackend("loki")));

        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"source\":\"nope\"}"))
                .isEqualTo("query_metrics: source 'nope' does not exist; the sources that answer metric queries: prom (list_sources names every source)");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"source\":\"loki\"}"))
                .isEqualTo("query_metrics: source 'loki' cannot answer metric queries; the sources that answer metric queries: prom");
        assertThat(prom.queries).isEmpty();
    }

    @Test
    void aFailingSourceMakesThePartialFlagAndIsNamedWhileTheOthersAnswer() {
        FakeMetricsBackend good = new FakeMetricsBackend("prom-a").serve("api", "cpu", noisy(1, 0.1));
        FakeMetricsBackend bad = new FakeMetricsBackend("prom-b")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "Prometheus answered 503"));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(good).add(bad)), "{\"service\":\"api\",\"metric\":\"cpu\"}");
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("sources")).containsExactly(Jsonp.provider().createValue("prom-a"));
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("prom-b");
        assertThat(failed.getString("kind")).isEqualTo("unavailable");
        assertThat(failed.getString("error")).isEqualTo("Prometheus answered 503");
        assertThat(result.getJsonArray("series")).hasSize(1);
        assertThat(result.getString("note")).contains("Some sources failed");

        JsonObject allFailed = ToolHarness.ok(tool(new InMemorySources().add(bad)), "{\"service\":\"api\",\"metric\":\"cpu\"}");
        assertThat(allFailed.getString("note")).contains("Every metrics source failed");
        assertThat(allFailed.isNull("resolvedSeries")).isTrue();
    }

    @Test
    void aFailingSourcesMessage_isRedactedLikeLogLines_beforeAnAgentReadsIt() {
        // a proxy in front of Prometheus that echoes the request's credentials in its refusal
        FakeMetricsBackend bad = new FakeMetricsBackend("prom-b").failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                "Prometheus answered 403: api_key=AKIAQWERTYUIOPASDFGH1 denied for ops@example.com"));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(bad)), "{\"service\":\"api\",\"metric\":\"cpu\"}");
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("error"))
                .startsWith("Prometheus answered 403: ").contains("[REDACTED:", "[REDACTED:email]")
                .doesNotContain("AKIAQWERTYUIOPASDFGH1", "ops@example.com");
    }

    @Test
    void oneHangingSourceOfThreeCostsOnlyItsTimeoutAndTheAnswerIsPartial() {
        FakeMetricsBackend a = new FakeMetricsBackend("prom-a").serve("api", "cpu", noisy(1, 0.1));
        FakeMetricsBackend b = new FakeMetricsBackend("prom-b").serve("api", "cpu", noisy(2, 0.1));
        FakeMetricsBackend hung = new FakeMetricsBackend("prom-c").hanging();
        QueryMetricsTool tool = tool(Toolkit.builder(new InMemorySources().add(a).add(b).add(hung).registry(), clock)
                .timeouts(Duration.ofMillis(200), Duration.ofSeconds(1)));
        long start = System.nanoTime();
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"cpu\"}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("series")).hasSize(2);
        JsonObject failed = result.getJsonArray("failedSources").getJsonObject(0);
        assertThat(failed.getString("source")).isEqualTo("prom-c");
        assertThat(failed.getString("kind")).isEqualTo("timeout");
        // generous: the deadline is 1 s; a loaded machine may add scheduling delay, not another timeout
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void queryLanguageAsTheMetric_isRefusedSayingToGiveACuratedOrPlainNameAndWhereLabelFiltersGo() {
        String error = ToolHarness.error(tool(new InMemorySources()), "{\"service\":\"api\",\"metric\":\"rate(x[5m])\"}");

        assertThat(error).startsWith("Invalid arguments for query_metrics: arguments.metric: must match "
                + CuratedMetricNames.METRIC_PATTERN + ". The metric to read: a name, not a query; label filters go in `labels`.");
        assertThat(error).contains("Query language is not accepted", "a plain metric name the backend stores");
        for (String curated : CuratedMetricNames.names()) {
            assertThat(error).as(curated).contains(curated);
        }
        // the same words reach detect_anomalies, whose metrics share the schema (it has no labels argument to point at)
        String anomalies = ToolHarness.error(new DetectAnomaliesTool(Toolkit.builder(new InMemorySources().registry(), clock).build()),
                "{\"metrics\":[\"sum(up)\"]}");
        assertThat(anomalies).contains("arguments.metrics[0]: must match", "A metric to judge. A curated name", "Query language is not accepted")
                .doesNotContain("`labels`");
    }

    @Test
    void aTenantsCaller_readingTheGatewaysAnomalySeries_asksOnlyForItsOwnTenantsSeries() {
        // the receiver of OMCP_ANOMALY_HISTORY_REMOTE_WRITE holds every tenant's scores, labelled tenant
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").serve("payments", "omcp_anomaly_score",
                Map.of("signal", "error_rate", "tenant", "acme"), noisy(1, 0.1));
        QueryMetricsTool tool = tool(new InMemorySources().add(receiver));

        for (String metric : List.of("omcp_anomaly_score", "omcp_anomaly_detected", "omcp_anomaly_onset_timestamp_seconds",
                "omcp_anomaly_level_above_largest_bucket")) {
            ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"" + metric + "\",\"groupBy\":[\"signal\"]}",
                    Principal.apiKey("acme-agent", "acme"));
            assertThat(receiver.queries.getLast().labels()).as(metric).containsExactly(Map.entry("tenant", "acme"));
        }
    }

    @Test
    void aCallerWithoutATenant_readsTheAnomalyScoresRecordedWithoutOne_asGetAnomalyHistoryDoes() {
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").serve("payments", "omcp_anomaly_score", noisy(1, 0.1));
        ToolHarness.ok(tool(new InMemorySources().add(receiver)),
                "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_score\",\"labels\":{\"signal\":\"cpu\"}}");

        // an empty value matches the series without the label: the gateway writes no tenant label for such scores
        assertThat(receiver.queries.getFirst().labels()).containsOnly(Map.entry("signal", "cpu"), Map.entry("tenant", ""));
    }

    @Test
    void aTenantFilterOnTheGatewaysAnomalySeries_namingAnotherTenant_isRefusedWithoutAskingAnySource() {
        FakeMetricsBackend receiver = new FakeMetricsBackend("history").serve("payments", "omcp_anomaly_score", noisy(1, 0.1));
        QueryMetricsTool tool = tool(new InMemorySources().add(receiver));
        String otherTenant = "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_score\",\"labels\":{\"tenant\":\"globex\"}}";

        var refused = ToolHarness.call(tool, otherTenant, Principal.apiKey("acme-agent", "acme"));
        assertThat(refused.isError()).isTrue();
        // the same words whether globex has scores or exists at all: nothing about another tenant is revealed
        assertThat(refused.firstText()).contains("labels.tenant", "only your own tenant's", "leave tenant out of labels")
                .doesNotContain("globex");
        assertThat(ToolHarness.call(tool, otherTenant, Principal.anonymous()).isError())
                .as("without a tenant, the scores recorded without one, as get_anomaly_history").isTrue();
        assertThat(receiver.queries).isEmpty();

        ToolHarness.ok(tool, "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_score\",\"labels\":{\"tenant\":\"acme\"}}",
                Principal.apiKey("acme-agent", "acme"));
        assertThat(receiver.queries.getFirst().labels()).as("its own tenant, named").containsExactly(Map.entry("tenant", "acme"));
    }

    /** A receiver that is also scraped: payments has a metric of its own, and globex's calls may have judged it. */
    private static FakeMetricsBackend receiver(boolean globexJudgedPayments) {
        FakeMetricsBackend receiver = new FakeMetricsBackend("receiver").honouringLabelFilters()
                .serve("payments", "http_requests_total", noisy(10, 0.05));
        return globexJudgedPayments
                ? receiver.serve("payments", "omcp_anomaly_score", Map.of("signal", "error_rate", "tenant", "globex"), noisy(1, 0.1))
                : receiver;
    }

    private QueryMetricsTool withRemoteWrite(FakeMetricsBackend receiver) {
        return tool(Toolkit.builder(new InMemorySources().add(receiver).registry(), clock).history(
                new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.of(samples -> true))));
    }

    @Test
    void whatACallerIsToldAboutAServicesAnomalyHistory_isTheSameWhetherAnotherTenantJudgedTheService() {
        Principal acme = Principal.apiKey("acme-agent", "acme");
        for (String metric : List.of("omcp_anomaly_score", "omcp_anomaly_detected", "omcp_anomaly_scor", "anomaly_score")) {
            String call = "{\"service\":\"payments\",\"metric\":\"" + metric + "\"}";
            JsonObject judged = ToolHarness.ok(withRemoteWrite(receiver(true)), call, acme);
            JsonObject notJudged = ToolHarness.ok(withRemoteWrite(receiver(false)), call, acme);

            assertThat(judged.getJsonArray("series")).as(metric).isEmpty();
            for (String member : List.of("note", "resolvedLabel", "resolvedSeries")) {
                assertThat(judged.get(member)).as(metric + " " + member + ": it would tell acme that some tenant judged payments")
                        .isEqualTo(notJudged.get(member));
            }
        }
    }

    @Test
    void theGatewaysAnomalySeriesNames_areOfferedFromTheGatewaysOwnKnowledge_whenItWritesThem() {
        JsonObject typo = ToolHarness.ok(withRemoteWrite(receiver(false)), "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_scor\"}",
                Principal.apiKey("acme-agent", "acme"));
        assertThat(typo.getString("note")).contains("Did you mean 'omcp_anomaly_score'?");

        JsonObject none = ToolHarness.ok(withRemoteWrite(receiver(true)), "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_score\"}",
                Principal.apiKey("acme-agent", "acme"));
        assertThat(none.getString("note")).as("no claim about the service, nor about other tenants' scores")
                .contains("anomaly history", "your tenant", "detect_anomalies").doesNotContain("exists", "similar names");

        JsonObject withoutSink = ToolHarness.ok(tool(new InMemorySources().add(receiver(true))),
                "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_scor\"}", Principal.apiKey("acme-agent", "acme"));
        assertThat(withoutSink.getString("note")).as("a gateway that writes no history offers none").doesNotContain("omcp_anomaly_score");
        JsonObject anonymous = ToolHarness.ok(tool(new InMemorySources().add(receiver(true))),
                "{\"service\":\"payments\",\"metric\":\"omcp_anomaly_score\"}", Principal.anonymous());
        assertThat(anonymous.getString("note")).contains("No score of the calls without a tenant", "when such a call judges",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE is not set");
    }

    @Test
    void aTenantLabelOfTheBackendsOwnMetrics_isTheCallersToFilterOn_andNoneIsAdded() {
        FakeMetricsBackend prom = new FakeMetricsBackend("prom").serve("api", "http_requests_total", noisy(10, 0.05));
        QueryMetricsTool tool = tool(new InMemorySources().add(prom));

        ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"http_requests_total\",\"labels\":{\"tenant\":\"shop\"}}",
                Principal.apiKey("acme-agent", "acme"));
        ToolHarness.ok(tool, "{\"service\":\"api\",\"metric\":\"error_rate\"}", Principal.apiKey("acme-agent", "acme"));

        assertThat(prom.queries.get(0).labels()).containsExactly(Map.entry("tenant", "shop"));
        assertThat(prom.queries.get(1).labels()).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithWhatIsWrong() {
        QueryMetricsTool tool = tool(new InMemorySources());
        assertThat(ToolHarness.error(tool, "{\"metric\":\"cpu\"}")).contains("service");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api svc\",\"metric\":\"cpu\"}")).contains("arguments.service");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"1w\"}")).contains("arguments.duration");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"90d\"}"))
                .contains("duration '90d' is longer than the longest window, 30d");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"duration\":\"5m\",\"step\":\"10m\"}"))
                .contains("step 10m is longer than the window 5m");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"labels\":{\"bad name\":\"x\"}}"))
                .contains("arguments.labels.bad name (the name): must match " + Schemas.METRIC_LABEL_PATTERN);
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"groupBy\":[\"pod)\"]}")).contains("arguments.groupBy");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"limit\":101}")).contains("arguments.limit");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"points\":0}")).contains("arguments.points");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"metric\":\"cpu\",\"query\":\"up\"}")).contains("query");
    }

    @Test
    void theDefinitionIsReadOnlyAndNamesTheCuratedMetrics() {
        var definition = tool(new InMemorySources()).definition();
        assertThat(definition.name()).isEqualTo("query_metrics");
        assertThat(definition.annotations().readOnlyHint()).isTrue();
        assertThat(definition.inputSchema().getJsonObject("properties").getJsonObject("metric").getJsonArray("examples").toString())
                .contains("error_rate", "latency_p99", "cpu_utilization");
        assertThat(definition.outputSchema()).isPresent();
        assertThat(List.of(definition.inputSchema().getJsonArray("required").getString(0),
                definition.inputSchema().getJsonArray("required").getString(1))).containsExactly("service", "metric");
    }
}
