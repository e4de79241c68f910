package dev.omcp.core.tools.observability;

import static dev.omcp.core.tools.observability.FakeMetricsBackend.noisy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryLimits;
import dev.omcp.sdk.query.Series;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A plugin's series hold to the asked window in every tool that reads metrics, as the builtin
 * readers' do: a plugin that sends seconds in {@code epochMillis} had its points read as January
 * 1970, and the verdict said the service stopped reporting then.
 */
class PluginSeriesOutsideRangeTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);
    private final AnomalyHistory history = new AnomalyHistory(clock, HistoryLimits.defaults(), Optional.empty());

    /** Every signal the three tools read, healthy, for {@code payments}. */
    private static FakeMetricsBackend payments(String name) {
        FakeMetricsBackend backend = new FakeMetricsBackend(name);
        for (String metric : List.of("error_rate", "latency_p99", "request_rate", "cpu", "memory", "cpu_utilization",
                "memory_utilization")) {
            backend.serve("payments", metric, noisy(0.3, 0.05));
        }
        return backend;
    }

    /** A connector that sends seconds where the SDK asks for milliseconds. */
    private static FakeMetricsBackend sendingSeconds(String name) {
        return payments(name).reordering(s -> retimed(s, t -> t / 1000));
    }

    private static Series retimed(Series s, LongUnaryOperator time) {
        return new Series(s.labels(), Arrays.stream(s.epochMillis()).map(time).toArray(), s.values());
    }

    private Toolkit toolkit(InMemorySources sources) {
        return Toolkit.builder(sources.registry(), clock).history(history).build();
    }

    private static List<String> warningsOf(JsonObject result, String source) {
        return result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class).stream()
                .filter(w -> w.getString("source").equals(source)).findFirst()
                .map(w -> w.getJsonArray("warnings").getValuesAs(JsonString::getString))
                .orElseThrow(() -> new AssertionError("no warnings of " + source + " in " + result));
    }

    @Test
    void detectAnomalies_ofAPluginSendingSeconds_dropsItsPoints_andSaysTheConnectorLikelySendsSeconds() {
        JsonObject result = ToolHarness.ok(new DetectAnomaliesTool(toolkit(new InMemorySources().addPlugin(sendingSeconds("sec")))),
                "{\"service\":\"payments\"}");

        // before: each series got a gap at the window's end, and the verdict said it stopped reporting in January 1970
        assertThat(result.toString()).doesNotContain("1970").doesNotContain("stopped reporting");
        assertThat(warningsOf(result, "sec")).singleElement().asString()
                .contains("sec answered", "more than one step outside the asked window", "left out")
                .contains("seconds", "epochMillis", "milliseconds");
        assertThat(result.getString("note")).contains("points outside the asked window, which were left out (see backendWarnings)");
        assertThat(result.getJsonArray("insufficientData")).hasSize(5);
    }

    @Test
    void queryMetrics_ofAPluginSendingSeconds_showsNoPointOf1970_andTheWarning() {
        JsonObject result = ToolHarness.ok(new QueryMetricsTool(toolkit(new InMemorySources().addPlugin(sendingSeconds("sec")))),
                "{\"service\":\"payments\",\"metric\":\"cpu\"}");

        assertThat(result.toString()).doesNotContain("1970");
        assertThat(warningsOf(result, "sec")).singleElement().asString().contains("likely sends seconds");
        assertThat(result.getString("note")).contains("points outside the asked window, which were left out (see backendWarnings)");
    }

    @Test
    void serviceHealth_ofAPluginSendingSeconds_judgesNothingOf1970_andShowsTheWarning() {
        JsonObject result = ToolHarness.ok(new ServiceHealthTool(toolkit(new InMemorySources().addPlugin(sendingSeconds("sec")))),
                "{\"service\":\"payments\"}");

        assertThat(result.toString()).doesNotContain("1970");
        assertThat(warningsOf(result, "sec")).singleElement().asString().contains("likely sends seconds");
        assertThat(result.getString("status")).isEqualTo("unknown");
        assertThat(result.getString("note")).contains("points outside the asked window, which were left out (see backendWarnings)");
    }

    @Test
    void aPluginWithAFewPointsFarAhead_keepsTheOthers_andTheWarningCountsThoseLeftOut_withoutBlamingSeconds() {
        // one point a year ahead on every series: the detector would read it as "now"
        long yearAhead = NOW.plus(Duration.ofDays(365)).toEpochMilli();
        FakeMetricsBackend plugin = payments("ahead").reordering(s -> {
            long[] t = Arrays.copyOf(s.epochMillis(), s.size() + 1);
            double[] x = Arrays.copyOf(s.values(), s.size() + 1);
            t[s.size()] = yearAhead;
            x[s.size()] = 99;
            return new Series(s.labels(), t, x);
        });

        JsonObject result = ToolHarness.ok(new QueryMetricsTool(toolkit(new InMemorySources().addPlugin(plugin))),
                "{\"service\":\"payments\",\"metric\":\"cpu\"}");

        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        assertThat(series.getJsonNumber("max").doubleValue()).as("the point a year ahead is left out").isLessThan(1);
        assertThat(series.getString("lastAt")).startsWith("2026-03-10");
        assertThat(warningsOf(result, "ahead")).singleElement().asString()
                .contains("ahead answered 1 point more than one step outside the asked window").doesNotContain("seconds");
    }

    @Test
    void aPluginWithinAStepOfTheWindow_isLeftAsItIs() {
        // a query frontend aligned to the step answers a point up to a step before the start
        FakeMetricsBackend plugin = payments("aligned").reordering(s -> retimed(s, t -> t - 50_000));

        JsonObject result = ToolHarness.ok(new QueryMetricsTool(toolkit(new InMemorySources().addPlugin(plugin))),
                "{\"service\":\"payments\",\"metric\":\"cpu\",\"duration\":\"1h\",\"step\":\"1m\"}");

        assertThat(result.containsKey("backendWarnings")).as(result.toString()).isFalse();
    }

    @Test
    void aBuiltinConnectorsSeries_areNotCheckedAgain() {
        // the builtin readers hold their samples to the window themselves (SampleChecks)
        JsonObject result = ToolHarness.ok(new QueryMetricsTool(toolkit(new InMemorySources().add(sendingSeconds("prom")))),
                "{\"service\":\"payments\",\"metric\":\"cpu\"}");

        assertThat(result.containsKey("backendWarnings")).isFalse();
    }

    /** Lines of pod payments-1 counted per minute over the last fifteen, 3 a minute, each point retimed by {@code time}. */
    private static Series countsPerMinute(LongUnaryOperator time) {
        long from = NOW.minus(Duration.ofMinutes(15)).toEpochMilli();
        long[] t = new long[15];
        double[] x = new double[15];
        for (int i = 0; i < 15; i++) {
            t[i] = time.applyAsLong(from + (i + 1) * 60_000L);
            x[i] = 3;
        }
        return new Series(Map.of("pod", "payments-1"), t, x);
    }

    private static FakeLogsBackend.WithAggregates logCounts(String name, Series counts) {
        return new FakeLogsBackend.WithAggregates(name).aggregates("payments", List.of(counts));
    }

    @Test
    void queryLogsAggregates_ofAPluginSendingSeconds_showNoCountOf1970_andTheWarning() {
        FakeLogsBackend.WithAggregates plugin = logCounts("sec", countsPerMinute(t -> t / 1000));
        Toolkit toolkit = toolkit(new InMemorySources().addPlugin(plugin));

        for (String call : List.of("{\"service\":\"payments\",\"aggregate\":\"sum\"}",
                "{\"service\":\"payments\",\"aggregate\":\"count_over_time\"}",
                "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"pod\"]}")) {
            JsonObject result = ToolHarness.ok(new QueryLogsTool(toolkit), call);

            // before: the counts were shown at January 1970, and topk ranked pod payments-1 by a count of 1970
            assertThat(result.toString()).as(call).doesNotContain("1970");
            assertThat(warningsOf(result, "sec")).as(call).singleElement().asString()
                    .contains("sec answered 15 points more than one step outside the asked window", "left out")
                    .contains("likely sends seconds in Series.epochMillis");
            assertThat(result.getString("note")).as(call)
                    .contains("points outside the asked window, which were left out (see backendWarnings)")
                    .as("the gateway left the points out: the source itself said nothing").doesNotContain("warned alongside");
        }
    }

    @Test
    void queryLogsCounts_ofAPluginWithAPointFarAheadAndNewestFirst_keepTheRestInTimeOrder() {
        long yearAhead = NOW.plus(Duration.ofDays(365)).toEpochMilli();
        Series counted = countsPerMinute(t -> t);
        long[] t = new long[16];
        double[] x = new double[16];
        // newest first, the year-ahead point first of all: it would be read as the latest step
        t[0] = yearAhead;
        x[0] = 500;
        for (int i = 0; i < 15; i++) {
            t[i + 1] = counted.timeAt(14 - i);
            x[i + 1] = counted.valueAt(14 - i);
        }
        FakeLogsBackend.WithAggregates plugin = logCounts("ahead", new Series(counted.labels(), t, x));
        plugin.warning("one store was slow");

        JsonObject result = ToolHarness.ok(new QueryLogsTool(toolkit(new InMemorySources().addPlugin(plugin))),
                "{\"service\":\"payments\",\"aggregate\":\"sum\"}");

        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        assertThat(series.getInt("total")).as("the point a year ahead is left out").isEqualTo(45);
        assertThat(series.getString("lastAt")).isEqualTo(NOW.toString());
        // the gateway's line first, then what the source said itself
        assertThat(warningsOf(result, "ahead")).containsExactly(
                "ahead answered 1 point more than one step outside the asked window (of 16); they were left out", "one store was slow");
        assertThat(result.getString("note")).contains("The source 'ahead' warned alongside its answer",
                "points outside the asked window, which were left out (see backendWarnings)");
    }

    @Test
    void queryLogsCounts_ofABuiltinConnector_areNotCheckedAgain() {
        JsonObject result = ToolHarness.ok(new QueryLogsTool(toolkit(new InMemorySources().add(logCounts("loki",
                countsPerMinute(t -> t / 1000))))), "{\"service\":\"payments\",\"aggregate\":\"sum\"}");

        assertThat(result.containsKey("backendWarnings")).isFalse();
    }
}
