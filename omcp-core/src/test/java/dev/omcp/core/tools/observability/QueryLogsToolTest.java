package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.policy.RolePolicy;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.testkit.schema.UndeclaredMembers;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QueryLogsToolTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private static final Map<String, String> POD_1 = Map.of("service_name", "payments", "pod", "payments-1", "level", "error");
    private static final Map<String, String> POD_2 = Map.of("service_name", "payments", "pod", "payments-2", "level", "info");
    private final ManualClock clock = new ManualClock(NOW);

    private static Instant ago(int seconds) {
        return NOW.minusSeconds(seconds);
    }

    private static FakeLogsBackend.WithAggregates payments(String name) {
        FakeLogsBackend.WithAggregates loki = new FakeLogsBackend.WithAggregates(name);
        loki.line("payments", ago(30), POD_1, "{\"level\":\"error\",\"msg\":\"timeout acquiring connection from pool payments-db\"}")
                .line("payments", ago(90), POD_2, "{\"level\":\"info\",\"msg\":\"payment captured\"}")
                .line("payments", ago(150), POD_1, "{\"level\":\"error\",\"msg\":\"timeout acquiring connection from pool payments-db\"}")
                .line("payments", ago(3600), POD_2, "{\"level\":\"info\",\"msg\":\"an hour ago, outside the window\"}");
        return loki;
    }

    private QueryLogsTool tool(InMemorySources sources) {
        return tool(Toolkit.builder(sources.registry(), clock));
    }

    private static QueryLogsTool tool(Toolkit.Builder builder) {
        return new QueryLogsTool(builder.build());
    }

    @Test
    void aSourceThatReturnsMoreLinesThanItWasAskedFor_isCutToItsNewest_andAWarningSaysSo() {
        // a plugin ignoring the limit, its lines oldest first
        ScriptedConnector careless = new ScriptedConnector().logs(query -> new LogResult(IntStream.range(0, query.limit() + 3)
                .mapToObj(i -> new LogEntry(ago(300 - i), "line " + i, Map.of("service_name", "payments"))).toList(), false,
                "{service_name=\"payments\"}"));
        JsonObject result = ToolHarness.ok(new QueryLogsTool(Toolkit.builder(new ScriptedSources().add("plugin", careless).registry(),
                clock).build()), "{\"service\":\"payments\",\"limit\":5}");
        assertThat(lineTexts(result)).containsExactly("line 7", "line 6", "line 5", "line 4", "line 3");
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getJsonArray("backendWarnings").getJsonObject(0).getJsonArray("warnings").getValuesAs(JsonString::getString))
                .containsExactly("the source returned 8 lines, more than the 5 it was asked for: the 3 oldest were left out");
    }

    private static List<String> lineTexts(JsonObject result) {
        return result.getJsonArray("lines").stream().map(l -> l.asJsonObject().getString("line")).toList();
    }

    @Test
    void linesComeNewestFirstWithTheirStreamsFromTheLastFifteenMinutes() {
        FakeLogsBackend loki = payments("loki");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\"}");

        assertThat(result.getInt("returned")).isEqualTo(3);
        assertThat(result.getBoolean("truncated")).isFalse();
        List<JsonObject> lines = result.getJsonArray("lines").getValuesAs(JsonObject.class);
        assertThat(lines).extracting(l -> l.getString("time")).containsExactly(ago(30).toString(), ago(90).toString(), ago(150).toString());
        // lines of one stream share its index; the streams carry the labels once
        assertThat(lines.get(0).getInt("stream")).isEqualTo(lines.get(2).getInt("stream"));
        JsonObject stream = result.getJsonArray("streams").getJsonObject(lines.get(1).getInt("stream"));
        assertThat(stream.getString("source")).isEqualTo("loki");
        assertThat(stream.getJsonObject("labels").getString("pod")).isEqualTo("payments-2");
        assertThat(result.getJsonArray("resolvedQueries").getJsonObject(0).getString("query")).contains("service_name=\"payments\"");
        assertThat(result.getString("duration")).isEqualTo("15m");
        assertThat(result.containsKey("note")).isFalse();
        LogQuery sent = loki.queries.getFirst();
        assertThat(sent.range().length()).isEqualTo(Duration.ofMinutes(15));
        assertThat(sent.limit()).isEqualTo(QueryLogsTool.DEFAULT_LIMIT);
    }

    @Test
    void fieldsTheBackendParsedOutOfTheLinesAreNotRepeatedInTheirStreams() {
        // with a | json stage Loki returns every field of the line as a label: the line already shows them
        Map<String, String> parsed = Map.of("service_name", "payments", "pod", "payments-1", "level", "error",
                "msg", "timeout acquiring connection", "trace_id", "a1b2");
        FakeLogsBackend loki = new FakeLogsBackend("loki")
                .line("payments", ago(5), parsed, "{\"level\":\"error\",\"msg\":\"timeout acquiring connection\",\"trace_id\":\"a1b2\"}")
                .line("payments", ago(6), Map.of("service_name", "payments", "pod", "payments-1", "level", "error",
                        "msg", "timeout acquiring connection", "trace_id", "c3d4"),
                        "{\"level\":\"error\",\"msg\":\"timeout acquiring connection\",\"trace_id\":\"c3d4\"}")
                .line("payments", ago(7), Map.of("service_name", "payments", "pod", "payments-1"), "level=warn msg=\"pool at 90%\"");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\"}");
        assertThat(result.getJsonArray("streams")).hasSize(1);
        assertThat(result.getJsonArray("streams").getJsonObject(0).getJsonObject("labels"))
                .containsOnlyKeys("service_name", "pod");
        assertThat(result.getJsonArray("lines").stream().map(l -> l.asJsonObject().getInt("stream"))).containsOnly(0);
    }

    @Test
    void filterLevelLabelsAndLimitArePushedToTheBackend() {
        FakeLogsBackend loki = payments("loki");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), """
                {"service":"payments","filter":"timeout|deadline","level":"ERROR","labels":{"pod":"payments-1"},"limit":1}""");
        LogQuery sent = loki.queries.getFirst();
        assertThat(sent.lineRegex()).contains("timeout|deadline");
        assertThat(sent.level()).contains("ERROR");
        assertThat(sent.labels()).containsExactly(Map.entry("pod", "payments-1"));
        assertThat(sent.limit()).isEqualTo(1);
        assertThat(result.getInt("returned")).isEqualTo(1);
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("More lines matched than the 1 returned", "aggregate");
    }

    @Test
    void linesOfSeveralSourcesAreMergedNewestFirstAndCutAtTheLimit() {
        FakeLogsBackend a = new FakeLogsBackend("loki-a").line("api", ago(10), Map.of("pod", "a"), "a-new").line("api", ago(300), Map.of("pod", "a"), "a-old");
        FakeLogsBackend b = new FakeLogsBackend("loki-b").line("api", ago(100), Map.of("pod", "b"), "b-mid");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(a).add(b)), "{\"service\":\"api\",\"limit\":2}");
        assertThat(lineTexts(result)).containsExactly("a-new", "b-mid");
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getJsonArray("sources")).hasSize(2);
    }

    @Test
    void personalDataAndSecretsAreRedactedEverywhereWithCountsPerCategory() {
        // spec 5.7: output is redacted by default
        FakeLogsBackend loki = new FakeLogsBackend("loki")
                .line("frontend", ago(5), Map.of("client_ip", "203.0.113.7", "pod", "frontend-1"),
                        "user alice@example.com signed in from 203.0.113.7 with Authorization: Bearer abcdefghijklmnop1234")
                .line("frontend", ago(6), Map.of("client_ip", "2001:db8::17", "pod", "frontend-1"), "password=hunter22 rejected");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"frontend\"}");

        String text = result.toString();
        assertThat(text).doesNotContain("alice@example.com", "203.0.113.7", "2001:db8::17", "hunter22", "abcdefghijklmnop1234");
        assertThat(lineTexts(result).get(0)).contains("[REDACTED:email]", "[REDACTED:ipv4]", "[REDACTED:bearer_token]");
        JsonObject redaction = result.getJsonObject("redaction");
        assertThat(redaction.getBoolean("applied")).isTrue();
        JsonObject byCategory = redaction.getJsonObject("byCategory");
        assertThat(byCategory.getInt("email")).isEqualTo(1);
        assertThat(byCategory.getInt("ipv4")).isEqualTo(2);
        assertThat(byCategory.getInt("ipv6")).isEqualTo(1);
        assertThat(byCategory.getInt("secret")).isEqualTo(1);
        assertThat(redaction.getInt("total")).isGreaterThanOrEqualTo(6);
        // timestamps and the structure survive
        assertThat(result.getJsonArray("lines").getJsonObject(0).getString("time")).isEqualTo(ago(5).toString());
        assertThat(result.getString("from")).isEqualTo("2026-03-10T11:45:00Z");
    }

    @Test
    void theBypassFlagAloneNeverLiftsRedactionAndTheResultSaysSo() {
        // spec 5.7: bypass needs the redaction:bypass permission AND a credential in OMCP_KEY_BYPASS_REDACTION AND the
        // flag; with no credential listed the flag is ignored
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("frontend", ago(5), Map.of(), "login by bob@example.org");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"frontend\",\"bypass_redaction\":true}");
        assertThat(lineTexts(result).getFirst()).isEqualTo("login by [REDACTED:email]");
        JsonObject redaction = result.getJsonObject("redaction");
        assertThat(redaction.getBoolean("applied")).isTrue();
        assertThat(redaction.getBoolean("bypassRequested")).isTrue();
        assertThat(redaction.getBoolean("bypassGranted")).isFalse();
        assertThat(result.getString("note")).contains("bypass_redaction was ignored", "redaction:bypass", "OMCP_KEY_BYPASS_REDACTION",
                "stays redacted");
    }

    @Test
    void theBypassIsGrantedOnlyWhenAllThreeGatesHold_listedKey_permittedRole_andTheFlag() {
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("frontend", ago(5), Map.of(), "login by bob@example.org")
                .line("frontend", ago(6), Map.of(), "x".repeat(QueryLogsTool.MAX_LINE_CHARS + 10) + " token=abcdef0123456789");
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), clock)
                .redactionBypass(RedactionBypass.of(java.util.Set.of("forensics", "plain"), RolePolicy.builtin())));
        Principal admin = Principal.apiKey("forensics", "", AllowLists.none(), java.util.Set.of("admin"));
        Principal viewer = Principal.apiKey("plain", "", AllowLists.none(), java.util.Set.of("viewer"));
        Principal unlisted = Principal.apiKey("other", "", AllowLists.none(), java.util.Set.of("admin"));
        String asking = "{\"service\":\"frontend\",\"bypass_redaction\":true}";

        JsonObject granted = ToolHarness.ok(tool, asking, admin);
        assertThat(lineTexts(granted).getFirst()).isEqualTo("login by bob@example.org");
        assertThat(lineTexts(granted).get(1)).as("a long line is cut, not redacted").doesNotContain("REDACTED");
        assertThat(granted.getJsonObject("redaction").getBoolean("applied")).isFalse();
        assertThat(granted.getJsonObject("redaction").getBoolean("bypassGranted")).isTrue();
        assertThat(granted.getString("note")).contains("Redaction was skipped for this call");

        assertThat(lineTexts(ToolHarness.ok(tool, "{\"service\":\"frontend\"}", admin)).getFirst()).as("no flag")
                .isEqualTo("login by [REDACTED:email]");
        for (Principal refused : List.of(viewer, unlisted, Principal.anonymous())) {
            JsonObject result = ToolHarness.ok(tool, asking, refused);
            assertThat(lineTexts(result).getFirst()).as(refused.id()).isEqualTo("login by [REDACTED:email]");
            assertThat(result.getJsonObject("redaction").getBoolean("bypassGranted")).isFalse();
        }
    }

    @Test
    void aPolicyThatCannotDecide_grantsNoBypass() {
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("frontend", ago(5), Map.of(), "login by bob@example.org");
        dev.omcp.ports.access.AccessPolicy unreachable = new dev.omcp.ports.access.AccessPolicy() {
            @Override
            public dev.omcp.ports.access.AccessDecision decide(Principal principal, dev.omcp.ports.access.Permission permission) {
                return new dev.omcp.ports.access.AccessDecision.Unavailable("OPA did not answer");
            }

            @Override
            public List<dev.omcp.ports.access.Permission> permissionsOf(Principal principal) {
                return List.of();
            }

            @Override
            public List<dev.omcp.ports.access.Permission> catalog() {
                return List.of(RedactionBypass.PERMISSION);
            }

            @Override
            public dev.omcp.ports.access.PolicyView view() {
                return new dev.omcp.ports.access.PolicyView(Map.of(), List.of(), "test");
            }
        };
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), clock)
                .redactionBypass(RedactionBypass.of(java.util.Set.of("forensics"), unreachable)));
        Principal key = Principal.apiKey("forensics", "", AllowLists.none(), java.util.Set.of("admin"));
        assertThat(lineTexts(ToolHarness.ok(tool, "{\"service\":\"frontend\",\"bypass_redaction\":true}", key)).getFirst())
                .isEqualTo("login by [REDACTED:email]");
    }

    @Test
    void withRedactionOffTheLinesAreReturnedAsTheyAreAndTheResultSaysWhy() {
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("frontend", ago(5), Map.of(), "login by bob@example.org");
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), clock).redaction(false));
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"frontend\"}");
        assertThat(lineTexts(result).getFirst()).isEqualTo("login by bob@example.org");
        assertThat(result.getJsonObject("redaction").getBoolean("applied")).isFalse();
        assertThat(result.getJsonObject("redaction").getString("reason")).contains("OMCP_REDACTION=off");
        JsonObject bypass = ToolHarness.ok(tool, "{\"service\":\"frontend\",\"bypass_redaction\":true}");
        assertThat(bypass.getString("note")).contains("has no effect: redaction is off");
    }

    @Test
    void aSourceThatWarnsAlongsideItsLines_isShownWithItsWarningsRedacted_andTheNoteSaysLinesMayBeMissing() {
        FakeLogsBackend warned = payments("loki-eu");
        warned.warning("query timed out on 3 of 16 shards, results may be partial; ask ops@example.com",
                "query timed out on 3 of 16 shards, results may be partial; ask ops@example.com", "two\nlines");
        FakeLogsBackend quiet = payments("loki-us");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(warned).add(quiet)), "{\"service\":\"payments\"}");

        assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement().satisfies(w -> {
            assertThat(w.getString("source")).isEqualTo("loki-eu");
            // each warning once, one line each, and redacted like every string of the answer (spec 5.7)
            assertThat(w.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString)).containsExactly(
                    "query timed out on 3 of 16 shards, results may be partial; ask [REDACTED:email]", "two lines");
        });
        assertThat(result.toString()).doesNotContain("ops@example.com");
        assertThat(result.getBoolean("partial")).as("every source answered").isFalse();
        assertThat(result.getInt("returned")).isEqualTo(6);
        assertThat(result.getString("note")).contains("The source 'loki-eu' warned alongside its answer (see backendWarnings): its lines "
                + "may be incomplete");
        declared(result);

        JsonObject unwarned = ToolHarness.ok(tool(new InMemorySources().add(quiet)), "{\"service\":\"payments\"}");
        assertThat(unwarned.containsKey("backendWarnings")).isFalse();
        assertThat(unwarned.containsKey("note")).isFalse();
    }

    @Test
    void aSourceThatWarnsAlongsideItsCounts_isShownWithItsWarnings_andTheNoteSaysTheCountsMayBeIncomplete() {
        long t0 = NOW.minus(Duration.ofMinutes(3)).toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of("pod", "payments-1"), new long[] {t0}, new double[] {4})));
        loki.warning("results may be partial");

        for (String call : List.of("{\"service\":\"payments\",\"aggregate\":\"sum\"}",
                "{\"service\":\"payments\",\"aggregate\":\"topk\",\"by\":[\"pod\"]}")) {
            JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), call);
            assertThat(result.getJsonArray("backendWarnings").getValuesAs(JsonObject.class)).singleElement()
                    .satisfies(w -> assertThat(w.getJsonArray("warnings").getString(0)).isEqualTo("results may be partial"));
            assertThat(result.getString("note")).contains("warned alongside its answer (see backendWarnings): its counts may be "
                    + "incomplete or approximate");
            declared(result);
        }
    }

    @Test
    void topkRanksTheGroupsWithMostLinesOnTheBackend() {
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of("pod", "payments-2"), new long[] {NOW.toEpochMilli()}, new double[] {12}),
                new Series(Map.of("pod", "payments-1"), new long[] {NOW.toEpochMilli()}, new double[] {340}),
                new Series(Map.of("pod", "payments-3"), new long[] {NOW.toEpochMilli()}, new double[] {1})));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), """
                {"service":"payments","aggregate":"topk","by":["pod"],"k":2,"level":"error","duration":"1h"}""");

        LogAggregation sent = loki.aggregations.getFirst();
        assertThat(sent.function()).isEqualTo(LogAggregation.Function.TOPK);
        assertThat(sent.by()).containsExactly("pod");
        assertThat(sent.k()).isEqualTo(2);
        assertThat(sent.query().level()).contains("error");
        assertThat(sent.query().range().length()).isEqualTo(Duration.ofHours(1));
        List<JsonObject> groups = result.getJsonArray("groups").getValuesAs(JsonObject.class);
        assertThat(groups).extracting(g -> g.getJsonObject("labels").getString("pod")).containsExactly("payments-1", "payments-2");
        assertThat(groups.getFirst().getInt("lines")).isEqualTo(340);
        assertThat(result.getJsonObject("aggregate").getString("function")).isEqualTo("topk");
        assertThat(result.getJsonObject("aggregate").getInt("k")).isEqualTo(2);
        assertThat(result.containsKey("lines")).isFalse();
        assertThat(loki.queries).as("no lines are read for an aggregate").isEmpty();
    }

    @Test
    void countOverTimeGivesCountsPerStepAndTheirTotal() {
        long t0 = NOW.minus(Duration.ofMinutes(3)).toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of(), new long[] {t0, t0 + 60_000, t0 + 120_000}, new double[] {4, 10, 6})));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"count_over_time\"}");
        assertThat(loki.aggregations.getFirst().step()).isEqualTo(Duration.ofMinutes(1));
        JsonObject series = result.getJsonArray("series").getJsonObject(0);
        assertThat(series.getInt("total")).isEqualTo(20);
        assertThat(series.getInt("max")).isEqualTo(10);
        assertThat(result.getJsonObject("aggregate").getString("step")).isEqualTo("1m");
        assertThat(result.getJsonArray("resolvedQueries").getJsonObject(0).getString("query")).startsWith("count_over_time(");
    }

    @Test
    void aCountAConnectorAnswersNewestFirst_isSummedInTimeOrder() {
        // a plugin that breaks the SDK's ascending promise, with a point for every one of the fifteen steps
        long[] times = new long[15];
        double[] values = new double[15];
        for (int i = 0; i < 15; i++) {
            times[i] = NOW.minus(Duration.ofMinutes(i)).toEpochMilli();
            values[i] = i == 0 ? 99 : i;
        }
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(new Series(Map.of(), times, values)));
        JsonObject series = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\"}")
                .getJsonArray("series").getJsonObject(0);

        assertThat(series.getJsonNumber("last").doubleValue()).as("the count of the step ending now").isEqualTo(99);
        assertThat(series.getString("lastAt")).isEqualTo(NOW.toString());
        assertThat(series.getJsonObject("downsampled").getJsonArray("values").getValuesAs(jakarta.json.JsonNumber.class))
                .extracting(jakarta.json.JsonNumber::doubleValue)
                .containsExactly(14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 99.0);
    }

    @Test
    void stepsWithoutLines_countAsZero_soTheStatisticsDescribeTheWholeWindow() {
        // Loki leaves a step without lines out of its answer: three minutes with lines out of fifteen, none in the last one
        long t0 = NOW.minus(Duration.ofMinutes(3)).toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of(), new long[] {t0, t0 + 60_000, t0 + 120_000}, new double[] {4, 10, 6})));
        JsonObject series = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\"}")
                .getJsonArray("series").getJsonObject(0);

        assertThat(series.getInt("points")).isEqualTo(15);
        assertThat(series.getInt("total")).isEqualTo(20);
        assertThat(series.getJsonNumber("min").doubleValue()).isZero();
        assertThat(series.getJsonNumber("last").doubleValue()).as("no line in the step ending now").isZero();
        assertThat(series.getString("lastAt")).isEqualTo(NOW.toString());
        assertThat(series.getJsonNumber("avg").doubleValue()).isCloseTo(20 / 15.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(series.getJsonObject("downsampled").getJsonArray("values").getValuesAs(jakarta.json.JsonNumber.class))
                .extracting(jakarta.json.JsonNumber::doubleValue)
                .containsExactly(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 10.0, 6.0, 0.0);
    }

    @Test
    void aCountOfEveryLineWithNoneForLongAtTheStart_saysTheZerosMayBeBeyondTheSourcesRetention() {
        // a week asked of a Loki that holds the last three days: four days of zeros are no quiet service
        Instant from = NOW.minus(Duration.ofDays(7));
        long stepMillis = Duration.ofMinutes(168).toMillis();
        long[] times = new long[26];
        double[] values = new double[26];
        for (int i = 0; i < 26; i++) {
            times[i] = from.toEpochMilli() + (35 + i) * stepMillis;
            values[i] = 8000;
        }
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(new Series(Map.of(), times, values)));
        JsonObject all = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\","
                + "\"duration\":\"7d\"}");
        assertThat(all.getString("note")).isEqualTo("No line at all before " + from.plusMillis(34 * stepMillis) + ", 3d 23h after the "
                + "window's start: the steps before count 0, but a logs source keeps lines only as long as its retention, so they may be "
                + "lines it no longer holds rather than a quiet service.");

        // errors that began with an incident are what a filtered count is asked to show: no such note
        JsonObject errors = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\","
                + "\"duration\":\"7d\",\"level\":\"error\"}");
        assertThat(errors.containsKey("note")).isFalse();
    }

    @Test
    void theDownsampledCountsStartAtTheWindowsStart_sinceEachPointCountsTheStepEndingAtItsTime() {
        // lines began in the minute (from+11m, from+12m]: an agent reading downsampled as buckets from `from` must find them
        // in bucket 11, not one step later, or it puts the onset a step after the metrics' onset
        long t0 = NOW.minus(Duration.ofMinutes(3)).toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of(), new long[] {t0, t0 + 60_000, t0 + 120_000}, new double[] {4, 10, 6})));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\"}");
        JsonObject downsampled = result.getJsonArray("series").getJsonObject(0).getJsonObject("downsampled");

        assertThat(downsampled.getString("from")).isEqualTo(result.getString("from"))
                .isEqualTo(NOW.minus(Duration.ofMinutes(15)).toString());
        assertThat(downsampled.getInt("stepSeconds")).isEqualTo(60);
        assertThat(downsampled.getJsonArray("values")).hasSize(15);
    }

    @Test
    void moreStepsThanBuckets_areAveragedIntoBucketsThatTileTheWindow() {
        // 120 one-minute counts into 60 buckets: two whole steps each, the first starting at the window's start
        long from = NOW.minus(Duration.ofHours(2)).toEpochMilli();
        long[] times = new long[120];
        double[] values = new double[120];
        for (int i = 0; i < 120; i++) {
            times[i] = from + (i + 1) * 60_000L;
            values[i] = i < 100 ? 2 : 10; // lines rose in the step (from+100m, from+101m]
        }
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(new Series(Map.of(), times, values)));
        JsonObject downsampled = ToolHarness.ok(tool(new InMemorySources().add(loki)),
                "{\"service\":\"payments\",\"aggregate\":\"sum\",\"duration\":\"2h\",\"step\":\"1m\"}")
                .getJsonArray("series").getJsonObject(0).getJsonObject("downsampled");

        assertThat(downsampled.getString("from")).isEqualTo(Instant.ofEpochMilli(from).toString());
        assertThat(downsampled.getInt("stepSeconds")).isEqualTo(120);
        List<Double> buckets = downsampled.getJsonArray("values").getValuesAs(jakarta.json.JsonNumber.class).stream()
                .map(jakarta.json.JsonNumber::doubleValue).toList();
        assertThat(buckets).hasSize(60);
        assertThat(buckets.subList(0, 50)).containsOnly(2.0);
        assertThat(buckets.subList(50, 60)).as("bucket 50 starts at from+100m").containsOnly(10.0);
    }

    @Test
    void countsOffTheStepGrid_areShownAsTheyCame_notMixedWithInventedZeros() {
        long offGrid = NOW.minus(Duration.ofSeconds(90)).toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of(), new long[] {offGrid, offGrid + 60_000}, new double[] {3, 5})));
        JsonObject series = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\"}")
                .getJsonArray("series").getJsonObject(0);
        assertThat(series.getInt("points")).isEqualTo(2);
        assertThat(series.getInt("total")).isEqualTo(8);
    }

    @Test
    void aStepThatDoesNotDivideTheWindowIsWidenedToOneThatDoes_soTheCountsCoverExactlyTheWindow() {
        FakeLogsBackend.WithAggregates loki = payments("loki");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)),
                "{\"service\":\"payments\",\"aggregate\":\"sum\",\"duration\":\"1h\",\"step\":\"7m\"}");

        assertThat(loki.aggregations.getFirst().step()).isEqualTo(Duration.ofSeconds(450));
        assertThat(result.getJsonObject("aggregate").getString("step")).isEqualTo("450s");
        assertThat(result.getString("note")).contains("The step 7m does not divide the 1h window into whole steps, so 450s was used");
    }

    @Test
    void theStepEchoedIsTheOneThatRan_andAWideningIsExplained() {
        FakeLogsBackend.WithAggregates loki = payments("loki").running(Duration.ofSeconds(4));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)),
                "{\"service\":\"payments\",\"aggregate\":\"sum\",\"duration\":\"1h\",\"step\":\"1s\"}");

        assertThat(loki.aggregations.getFirst().step()).isEqualTo(Duration.ofSeconds(1));
        JsonObject aggregate = result.getJsonObject("aggregate");
        assertThat(aggregate.getString("step")).isEqualTo("4s");
        assertThat(aggregate.getString("requestedStep")).isEqualTo("1s");
        assertThat(result.getString("note")).contains("The counts are per 4s, not the 1s asked for: the source loki (4s) widened the step",
                "more points per series than its backend answers");
    }

    @Test
    void aStepThatRanAsAskedIsEchoedWithoutARequestedStep() {
        FakeLogsBackend.WithAggregates loki = payments("loki").running(Duration.ofMinutes(5));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)),
                "{\"service\":\"payments\",\"aggregate\":\"sum\",\"duration\":\"1h\",\"step\":\"5m\"}");
        assertThat(result.getJsonObject("aggregate").getString("step")).isEqualTo("5m");
        assertThat(result.getJsonObject("aggregate").containsKey("requestedStep")).isFalse();
        assertThat(result.getString("note", "")).doesNotContain("counts are per", "does not divide");
    }

    @Test
    void aWindowShorterThanTheDefaultStepIsCountedInOneStep() {
        FakeLogsBackend.WithAggregates loki = payments("loki");
        ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\",\"duration\":\"30s\"}");
        assertThat(loki.aggregations.getFirst().step()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void manySeriesAreCutToThoseWithTheMostLines_andTheAnswerSaysSo() {
        long at = NOW.toEpochMilli();
        List<Series> perTrace = new java.util.ArrayList<>();
        for (int i = 1; i <= QueryLogsTool.MAX_SERIES + 5; i++) {
            perTrace.add(new Series(Map.of("trace_id", "t" + i), new long[] {at}, new double[] {i}));
        }
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", perTrace);
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)),
                "{\"service\":\"payments\",\"aggregate\":\"sum\",\"by\":[\"trace_id\"]}");

        List<JsonObject> series = result.getJsonArray("series").getValuesAs(JsonObject.class);
        assertThat(series).hasSize(QueryLogsTool.MAX_SERIES);
        assertThat(series).extracting(s -> s.getInt("total")).first().isEqualTo(QueryLogsTool.MAX_SERIES + 5);
        assertThat(series).extracting(s -> s.getInt("total")).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("25 series were counted; the 20 with the most lines are shown", "topk");
    }

    @Test
    void aFewSeriesComeMostLinesFirst_notTruncated() {
        long at = NOW.toEpochMilli();
        FakeLogsBackend.WithAggregates loki = payments("loki").aggregates("payments", List.of(
                new Series(Map.of("pod", "payments-1"), new long[] {at}, new double[] {3}),
                new Series(Map.of("pod", "payments-2"), new long[] {at}, new double[] {30})));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"count_over_time\"}");
        assertThat(result.getJsonArray("series").getValuesAs(JsonObject.class)).extracting(s -> s.getJsonObject("labels").getString("pod"))
                .containsExactly("payments-2", "payments-1");
        assertThat(result.getBoolean("truncated")).isFalse();
    }

    @Test
    void anAggregateWithNoMatchingLineSaysSoInsteadOfAZeroCount() {
        FakeLogsBackend.WithAggregates loki = payments("loki");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"payments\",\"aggregate\":\"sum\",\"by\":[\"pod\"]}");
        assertThat(result.getJsonArray("series")).isEmpty();
        assertThat(result.getString("note")).contains("nothing to count");
    }

    @Test
    void aSourceThatOnlySearchesLinesIsNamedWhenAnAggregateIsAsked() {
        FakeLogsBackend searchOnly = new FakeLogsBackend("old-loki").line("api", ago(5), Map.of(), "x");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(searchOnly)), "{\"service\":\"api\",\"aggregate\":\"count_over_time\"}");
        assertThat(result.getString("note")).contains("[old-loki] can search lines but cannot compute aggregates");
    }

    @Test
    void argumentsThatDoNotGoTogetherAreRefusedSoTheCallerKnowsTheyWereNotApplied() {
        QueryLogsTool tool = tool(new InMemorySources());
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"topk\"}")).contains("aggregate topk needs by");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"k\":3}")).endsWith("k applies only with aggregate topk");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"step\":\"1m\"}")).endsWith("step applies only with aggregate count_over_time or sum");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"by\":[\"pod\"]}")).endsWith("by applies only with aggregate count_over_time, sum or topk");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"sum\",\"k\":3}")).contains("k applies only to aggregate topk");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"sum\",\"limit\":3}")).contains("limit counts lines");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"topk\",\"by\":[\"pod\"],\"step\":\"1m\"}"))
                .contains("step does not apply to aggregate topk");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"count_over_time\",\"step\":\"1h\"}"))
                .contains("step 1h is longer than the window 15m");
    }

    @Test
    void aLineFilterIsCheckedBeforeAnyBackendSeesIt() {
        FakeLogsBackend loki = payments("loki");
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"timeout(\"}"))
                .contains("filter is not a valid regular expression");
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"error(?!s)\"}")).contains("a lookahead", "RE2");
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"(?<=user )\\\\w+\"}")).contains("a lookbehind");
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"(a)\\\\1\"}")).contains("a backreference");
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"a++\"}")).contains("a possessive quantifier");
        assertThat(ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"" + "a".repeat(513) + "\"}")).contains("arguments.filter");
        assertThat(loki.queries).isEmpty();
        // inside a character class or escaped these are plain characters
        ToolHarness.ok(tool, "{\"service\":\"payments\",\"filter\":\"[(?=]|\\\\(\\\\?=|c\\\\++\"}");
    }

    @Test
    void aFilterThatIsNoRegularExpression_isRefusedInOwnWords_sayingWhereAndHowToWriteIt() {
        // ToolArgumentFuzzTest: the refusal was Java's own parser message ("Illegal repetition near position 1"),
        // which neither says what to send nor reads as the gateway's
        QueryLogsTool tool = tool(new InMemorySources().add(payments("loki")));
        String selector = ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"{job=~\\\".+\\\"}\"}");
        assertThat(selector).contains("filter is not a valid regular expression", "at character", "backslash", "labels")
                .doesNotContain("Illegal", "position");
        String unclosed = ToolHarness.error(tool, "{\"service\":\"payments\",\"filter\":\"timeout(\"}");
        assertThat(unclosed).contains("at its end", "backslash").doesNotContain("Unclosed", "selector");
    }

    @Test
    void otherBadArgumentsAreRefusedWithWhatIsWrong() {
        QueryLogsTool tool = tool(new InMemorySources());
        assertThat(ToolHarness.error(tool, "{}")).contains("service");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"level\":\"error; drop\"}")).contains("arguments.level");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"limit\":501}")).contains("arguments.limit");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"aggregate\":\"avg\"}")).contains("arguments.aggregate");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"labels\":{\"1x\":\"y\"}}")).contains("arguments.labels.1x (the name): must match " + Schemas.LABEL_PATTERN);
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"bypass_redaction\":\"yes\"}")).contains("arguments.bypass_redaction");
    }

    @Test
    void aSourceArgumentThatCannotAnswer_isRefusedNamingTheSourcesThatCan_asInTheOtherTools() {
        FakeLogsBackend searchOnly = new FakeLogsBackend("old-loki").line("api", ago(5), Map.of(), "x");
        QueryLogsTool tool = tool(new InMemorySources().add(payments("loki")).add(searchOnly).add(new FakeMetricsBackend("prom").knows("api")));

        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"source\":\"nope\"}")).isEqualTo("query_logs: source 'nope' does not "
                + "exist; the sources that answer log searches: loki, old-loki (list_sources names every source)");
        assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"source\":\"prom\"}"))
                .isEqualTo("query_logs: source 'prom' cannot answer log searches; the sources that answer log searches: loki, old-loki");
        // a logs source whose connector only searches is no wrong name: the answer says to search instead
        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"source\":\"old-loki\",\"aggregate\":\"sum\"}").getString("note"))
                .contains("[old-loki] can search lines but cannot compute aggregates; call query_logs without aggregate");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"api\",\"source\":\"old-loki\"}").getJsonArray("lines")).hasSize(1);
    }

    @Test
    void missingSourcesUnknownServicesAndEmptyResultsEachHaveTheirNote() {
        assertThat(ToolHarness.ok(tool(new InMemorySources()), "{\"service\":\"api\"}").getString("note"))
                .contains("No connected source can search logs", "LOKI_URL");
        QueryLogsTool tool = tool(new InMemorySources().add(payments("loki")));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"paymnts\"}").getString("note")).contains("No logs source knows a service named 'paymnts'");
        // the guess comes from every source that lists services (here a Prometheus next to the logs source)
        QueryLogsTool withListing = tool(new InMemorySources().add(payments("loki")).add(new FakeMetricsBackend("prom").knows("payments")));
        assertThat(ToolHarness.ok(withListing, "{\"service\":\"paymnts\"}").getString("note")).contains("Did you mean 'payments'?");
        // a name another source lists is no typo: say where its other signals are, not "check the name" (a loop for an agent)
        QueryLogsTool metricsOnly = tool(new InMemorySources().add(payments("loki")).add(new FakeMetricsBackend("prom").knows("kubelet")));
        assertThat(ToolHarness.ok(metricsOnly, "{\"service\":\"kubelet\"}").getString("note"))
                .contains("No logs source knows a service named 'kubelet'", "'kubelet' is listed by prom, which holds other signals of it: "
                        + "use query_metrics or get_service_health for its metrics.").doesNotContain("Did you mean", "query_traces");
        JsonObject none = ToolHarness.ok(tool, "{\"service\":\"payments\",\"filter\":\"segfault\"}");
        assertThat(none.getJsonArray("lines")).isEmpty();
        assertThat(none.getString("note")).contains("No line matched in the last 15m (the filter)");
    }

    @Test
    void veryLongLinesAreCutAndCounted() {
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), "x".repeat(5000));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");
        assertThat(lineTexts(result).getFirst()).hasSize(QueryLogsTool.MAX_LINE_CHARS + " [3000 more characters]".length() + 3)
                .endsWith("... [3000 more characters]");
        assertThat(result.getString("note")).contains("1 line was longer than 2000 characters and cut");
    }

    @Test
    void aLongLineIsRedactedWholeBeforeItIsCut_soASecretTheCutSplitsIsNotShownInPart() {
        // cut first, "ghp_" + 16 characters and "alice@exa" would be left: too short for any detector, still a leak
        String token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        String withToken = "a".repeat(1979) + " " + token + " " + "b".repeat(3000);
        String withEmail = "c".repeat(1990) + " alice@example.com " + "d".repeat(3000);
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), withToken).line("api", ago(6), Map.of(), withEmail);

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");

        List<String> lines = lineTexts(result);
        assertThat(lines.get(0)).doesNotContain("ghp_", "abcdefghijklmnop")
                // the marker would straddle the cut, so the cut moves before it rather than show "[REDACTED:gith"
                .isEqualTo("a".repeat(1979) + " ... [" + ("[REDACTED:github_token] " + "b".repeat(3000)).length() + " more characters]");
        assertThat(lines.get(1)).doesNotContain("alice", "@exa").startsWith("c".repeat(1990) + " ... [");
        JsonObject byCategory = result.getJsonObject("redaction").getJsonObject("byCategory");
        assertThat(byCategory.getInt("github_token")).as("what was redacted before the cut is counted").isEqualTo(1);
        assertThat(byCategory.getInt("email")).isEqualTo(1);
        assertThat(result.getString("note")).contains("2 lines were longer than 2000 characters and cut");
    }

    @Test
    void aTenMegabyteLine_isRedactedOnlyAtItsStart_andWhatFollowsIsCountedAsCut() {
        // the email at the end is counted only if the whole line is scanned: a hostile backend's huge lines cost their start
        String line = "x ".repeat(5 * 1024 * 1024) + "alice@example.com";
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), line);

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");

        assertThat(lineTexts(result).getFirst()).isEqualTo(line.substring(0, QueryLogsTool.MAX_LINE_CHARS) + "... ["
                + (line.length() - QueryLogsTool.MAX_LINE_CHARS) + " more characters]");
        assertThat(result.getJsonObject("redaction").getInt("total")).isZero();
        assertThat(result.getString("note")).contains("1 line was longer than 2000 characters and cut",
                "Only the first 10192 characters of a line are redacted and searched: 1 line was longer");
    }

    @Test
    void theFilterIsCheckedAgainstTheStartOfAVeryLongLine_asRedactedAndShown() {
        // the backend matched "timeout" 9 MB into the line; the gateway reads the line's start only, so it cannot
        // confirm the match as shown and the line is left out (fail closed), as a line whose match is redacted is
        String late = "y ".repeat(4_500_000) + "timeout";
        String early = "timeout " + "z ".repeat(4_500_000);
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), late).line("api", ago(6), Map.of(), early);

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\",\"filter\":\"timeout\"}");

        assertThat(lineTexts(result)).hasSize(1).allSatisfy(l -> assertThat(l).startsWith("timeout z z"));
    }

    @Test
    void aCutLineKeepsAMarkerThatEndsBeforeTheCut() {
        String line = "e".repeat(1900) + " password=hunter2 " + "f".repeat(3000);
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), line);

        String shown = lineTexts(ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}")).getFirst();

        assertThat(shown).startsWith("e".repeat(1900) + " password=[REDACTED:secret] fff").doesNotContain("hunter2")
                .endsWith("... [" + (line.length() - "hunter2".length() + "[REDACTED:secret]".length() - QueryLogsTool.MAX_LINE_CHARS)
                        + " more characters]")
                .hasSize(QueryLogsTool.MAX_LINE_CHARS + "... [2928 more characters]".length());
    }

    @Test
    void oneHangingSourceOfThreeLeavesAPartialAnswerWithinTheDeadline() {
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(payments("loki-a")).add(payments("loki-b"))
                .add(new FakeLogsBackend("loki-c").hanging()).registry(), clock).timeouts(Duration.ofMillis(200), Duration.ofSeconds(1)));
        long start = System.nanoTime();
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"payments\"}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("source")).isEqualTo("loki-c");
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("kind")).isEqualTo("timeout");
        assertThat(result.getInt("returned")).isEqualTo(6);
        assertThat(result.getString("note")).contains("Some sources failed");
        assertThat(took).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aFailingSourceIsNamedWhileTheOthersAnswer() {
        FakeLogsBackend broken = new FakeLogsBackend("loki-b")
                .failingAll(new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error : syntax error: unexpected IDENTIFIER"));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(payments("loki-a")).add(broken)), "{\"service\":\"payments\"}");
        assertThat(result.getBoolean("partial")).isTrue();
        assertThat(result.getJsonArray("failedSources").getJsonObject(0).getString("error")).contains("unexpected IDENTIFIER");
        assertThat(result.getJsonArray("lines")).hasSize(3);
        JsonObject allFailed = ToolHarness.ok(tool(new InMemorySources().add(broken)), "{\"service\":\"payments\"}");
        assertThat(allFailed.getString("note")).contains("Every logs source failed").doesNotContain("shorten duration");
        FakeLogsBackend slow = new FakeLogsBackend("loki-s")
                .failingAll(new ConnectorException(ConnectorException.Kind.TIMEOUT, "Loki did not answer within 10000 ms"));
        assertThat(ToolHarness.ok(tool(new InMemorySources().add(slow)), "{\"service\":\"payments\",\"duration\":\"1d\"}").getString("note"))
                .endsWith("A timeout usually means the search was too large: shorten duration, or add a filter or level.");
    }

    @Test
    void whatIsHiddenInAFailingSourcesErrorAndInWarnings_isCountedInTheRedaction() {
        FakeLogsBackend broken = new FakeLogsBackend("loki-b").failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE,
                "proxy refused alice@example.com: Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456"));
        FakeLogsBackend warned = payments("loki-w");
        // said twice, shown once: counted once
        warned.warning("ask ops@example.com", "ask ops@example.com");

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(broken).add(warned)), "{\"service\":\"payments\"}");

        assertThat(result.toString()).doesNotContain("alice@example.com", "abcdefghijklmnop", "ops@example.com");
        JsonObject redaction = result.getJsonObject("redaction");
        // spec 5.7: per-category counts of what the whole answer hides, the sources' own words included
        assertThat(redaction.getJsonObject("byCategory").getInt("email")).isEqualTo(2);
        assertThat(redaction.getJsonObject("byCategory").getInt("bearer_token")).isEqualTo(1);
        assertThat(redaction.getInt("total")).isEqualTo(3);
    }

    private static JsonObject failed(JsonObject result, String source) {
        return result.getJsonArray("failedSources").getValuesAs(JsonObject.class).stream()
                .filter(f -> f.getString("source").equals(source)).findFirst().orElseThrow();
    }

    /** What CheckedToolCalls holds every answer to in the ITs: no member the output schema leaves out. */
    private void declared(JsonObject result) {
        assertThat(UndeclaredMembers.in(result, tool(new InMemorySources()).definition().outputSchema().orElseThrow())).isEmpty();
    }

    @Test
    void aSourceThatHangsPastItsTimeout_isNamedWithTheLogqlItWasRunning_andTheAdviceIsToNarrowThatQuery() {
        FakeLogsBackend.Reporting slow = new FakeLogsBackend.Reporting("loki-slow");
        slow.hanging();
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(payments("loki-a")).add(slow).registry(), clock)
                .timeouts(Duration.ofMillis(200), Duration.ofSeconds(5)));

        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"payments\",\"filter\":\"timeout\",\"duration\":\"7d\"}");

        JsonObject failure = failed(result, "loki-slow");
        assertThat(failure.getString("kind")).isEqualTo("timeout");
        assertThat(failure.getString("query")).isEqualTo("{service_name=\"payments\"} |~ \"timeout\"");
        assertThat(result.getJsonArray("resolvedQueries").getValuesAs(JsonObject.class))
                .extracting(q -> q.getString("source")).containsExactly("loki-a");
        assertThat(result.getString("note")).contains("Some sources failed (see failedSources): their lines are missing.",
                "narrow the query that ran out of time (failedSources[].query)", "shorten duration (7d here), or add a level.");
        declared(result);
    }

    @Test
    void aLoneSourceCutAtTheDeadline_isNamedWithItsAggregateQuery() {
        // the fan-out stops waiting at the deadline and keeps nothing the call would have answered
        FakeLogsBackend.Reporting slow = new FakeLogsBackend.Reporting("loki");
        slow.hanging();
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(slow).registry(), clock)
                .timeouts(Duration.ofMillis(200), Duration.ofMillis(200)));

        JsonObject result = ToolHarness.ok(tool, """
                {"service":"payments","aggregate":"topk","by":["msg"],"level":"error","duration":"1d"}""");

        assertThat(failed(result, "loki").getString("query")).isEqualTo("topk({service_name=\"payments\"})");
        assertThat(result.getJsonArray("resolvedQueries")).isEmpty();
        assertThat(result.getString("note")).contains("Every logs source failed",
                "narrow the query that ran out of time (failedSources[].query)", "shorten duration (1d here), or add a filter.");
        declared(result);
    }

    @Test
    void aSourceThatRefusesTheQuery_isNamedWithIt_forLinesAndForCounts() {
        FakeLogsBackend.Reporting broken = new FakeLogsBackend.Reporting("loki-b");
        broken.failingAll(new ConnectorException(ConnectorException.Kind.BAD_QUERY, "parse error : syntax error: unexpected IDENTIFIER"));
        QueryLogsTool tool = tool(new InMemorySources().add(payments("loki-a")).add(broken));

        JsonObject lines = ToolHarness.ok(tool, "{\"service\":\"payments\",\"filter\":\"pool\"}");
        assertThat(failed(lines, "loki-b").getString("kind")).isEqualTo("bad_query");
        assertThat(failed(lines, "loki-b").getString("query")).isEqualTo("{service_name=\"payments\"} |~ \"pool\"");
        assertThat(lines.getString("note")).as("not a timeout: no advice to narrow").doesNotContain("narrow", "shorten");
        declared(lines);

        JsonObject counts = ToolHarness.ok(tool, "{\"service\":\"payments\",\"aggregate\":\"sum\",\"by\":[\"pod\"]}");
        assertThat(failed(counts, "loki-b").getString("query")).isEqualTo("sum({service_name=\"payments\"})");
        declared(counts);
    }

    @Test
    void aConnectorThatDoesNotTellItsQuery_failsAsBefore_withoutAQueryMember() {
        // the SDK's default: a connector written before the listener existed
        FakeLogsBackend hanging = new FakeLogsBackend("loki-h").hanging();
        FakeLogsBackend broken = new FakeLogsBackend.WithAggregates("loki-b")
                .failingAll(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "Loki answered 503"));
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(hanging).add(broken).registry(), clock)
                .timeouts(Duration.ofMillis(200), Duration.ofSeconds(5)));

        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"payments\"}");

        assertThat(result.getJsonArray("failedSources").getValuesAs(JsonObject.class))
                .extracting(f -> f.getString("source")).containsExactlyInAnyOrder("loki-h", "loki-b");
        assertThat(result.getJsonArray("failedSources").getValuesAs(JsonObject.class)).noneMatch(f -> f.containsKey("query"));
        assertThat(result.getString("note"))
                .endsWith("A timeout usually means the search was too large: shorten duration, or add a filter or level.");
        declared(result);
    }

    @Test
    void aHugeReportedQuery_isCut_soAPluginCannotFloodTheAnswer() {
        FakeLogsBackend.Reporting verbose = new FakeLogsBackend.Reporting("loki").commented("x".repeat(100_000));
        verbose.failingAll(new ConnectorException(ConnectorException.Kind.TIMEOUT, "Loki did not answer within 10000 ms"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(verbose)), "{\"service\":\"payments\"}");

        String query = failed(result, "loki").getString("query");
        assertThat(query).startsWith("{service_name=\"payments\"} # xxx").endsWith("... (cut: 100028 characters)");
        assertThat(query.length()).isLessThan(4_200);
        declared(result);
    }

    @Test
    void theQueryOfAFailedSource_isRedactedLikeTheResolvedQueriesOfTheOthers() {
        // the same comment in both: what hides it in resolvedQueries must hide it in failedSources
        FakeLogsBackend.Reporting answering = new FakeLogsBackend.Reporting("loki-a").commented("owner alice@example.com");
        answering.line("payments", ago(30), POD_1, "{\"level\":\"error\",\"msg\":\"timeout\"}");
        FakeLogsBackend.Reporting broken = new FakeLogsBackend.Reporting("loki-b").commented("owner alice@example.com");
        broken.failingAll(new ConnectorException(ConnectorException.Kind.TIMEOUT, "Loki did not answer within 10000 ms"));

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(answering).add(broken)), "{\"service\":\"payments\"}");

        String expected = "{service_name=\"payments\"} # owner [REDACTED:email]";
        assertThat(result.getJsonArray("resolvedQueries").getJsonObject(0).getString("query")).isEqualTo(expected);
        assertThat(failed(result, "loki-b").getString("query")).isEqualTo(expected);
        assertThat(result.toString()).doesNotContain("alice@example.com");
        assertThat(result.getJsonObject("redaction").getJsonObject("byCategory").getInt("email")).isEqualTo(2);

        QueryLogsTool unredacted = tool(Toolkit.builder(new InMemorySources().add(broken).registry(), clock).redaction(false));
        assertThat(failed(ToolHarness.ok(unredacted, "{\"service\":\"payments\"}"), "loki-b").getString("query"))
                .isEqualTo("{service_name=\"payments\"} # owner alice@example.com");
    }

    @Test
    void theDefinitionIsReadOnlyAndDocumentsTheLimits() {
        var definition = tool(new InMemorySources()).definition();
        assertThat(definition.name()).isEqualTo("query_logs");
        assertThat(definition.annotations().readOnlyHint()).isTrue();
        JsonObject limit = definition.inputSchema().getJsonObject("properties").getJsonObject("limit");
        // no declared default: limit is refused with aggregate, and a client sending a declared default must not be
        assertThat(limit.containsKey("default")).isFalse();
        assertThat(limit.getString("description")).contains("default 50");
        assertThat(limit.getInt("maximum")).isEqualTo(500);
        assertThat(definition.inputSchema().getJsonObject("properties").getJsonObject("aggregate").getJsonArray("enum"))
                .extracting(JsonValue::toString).containsExactly("\"count_over_time\"", "\"sum\"", "\"topk\"");
    }

    @Test
    void streamLabels_dropOnlyLabelsTheLineCarriesAsJsonKeyOrLogfmtWithTheirValue() {
        Map<String, String> labels = Map.of("app", "checkout", "level", "error", "pod", "checkout-1", "user", "ann");
        String json = "{\"level\":\"error\",\"msg\":\"application checkout failed\"}";
        String logfmt = "level=error app=checkout msg=\"user ann logged in\"";

        assertThat(QueryLogsTool.streamLabels(labels, json)).as("level is a JSON key; 'app' only inside 'application'")
                .isEqualTo(Map.of("app", "checkout", "pod", "checkout-1", "user", "ann"));
        assertThat(QueryLogsTool.streamLabels(labels, logfmt)).as("user and ann appear, but not as user=")
                .isEqualTo(Map.of("pod", "checkout-1", "user", "ann"));
        assertThat(QueryLogsTool.streamLabels(labels, "no labels in here")).as("nothing parsed: the labels as they are")
                .isSameAs(labels);
        assertThat(QueryLogsTool.streamLabels(Map.of("level", ""), "level=")).as("an empty value is never parsed")
                .isEqualTo(Map.of("level", ""));
    }

    @Test
    void aLabelTheLineCarriesOnlyPastItsCut_staysWithTheStream() {
        // only the start of a long line is shown, so a field parsed from further on is not repeated by it; the search
        // for it stays within that start, so a hostile backend's 10 MB line and long label values cost no more than it
        String line = "level=error msg=\"" + "x".repeat(QueryLogsTool.MAX_LINE_CHARS) + "\" trace_id=a1b2";
        Map<String, String> labels = Map.of("service_name", "api", "level", "error", "trace_id", "a1b2");
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), labels, line);

        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");

        assertThat(result.getJsonArray("streams").getJsonObject(0).getJsonObject("labels")).containsOnlyKeys("service_name", "trace_id");
    }

    @Test
    void aCutNeverSplitsACharacterOfTwoUtf16Units() {
        String emoji = new String(Character.toChars(0x1F600));
        String line = "a".repeat(QueryLogsTool.MAX_LINE_CHARS - 1) + emoji + "b".repeat(3000);
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(5), Map.of(), line);

        String shown = lineTexts(ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}")).getFirst();

        assertThat(shown).isEqualTo("a".repeat(QueryLogsTool.MAX_LINE_CHARS - 1) + "... [" + (3000 + emoji.length()) + " more characters]");
    }

    /** A service whose lines carry one secret of each kind a guess could target, and one ordinary line. */
    private static FakeLogsBackend.WithAggregates leakyLines() {
        FakeLogsBackend.WithAggregates loki = new FakeLogsBackend.WithAggregates("loki");
        loki.line("auth", ago(10), Map.of("pod", "auth-1", "user", "alice@example.com"), "login ok for alice@example.com")
                .line("auth", ago(20), Map.of("pod", "auth-1"), "db connect password=hunter22 host=db-1")
                .line("auth", ago(30), Map.of("pod", "auth-1"), "GET /health 200");
        return loki;
    }

    @Test
    void aFilterThatSpellsOutHiddenText_isRefusedBeforeAnyBackendIsAsked() {
        // without this, "does filter X return lines" tells whether the hidden value is X
        FakeLogsBackend.WithAggregates loki = leakyLines();
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"filter\":\"alice@example.com\"}"))
                .contains("filter contains text of the kind email", "redacts", "cannot be probed", "other words")
                .doesNotContain("alice");
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"filter\":\"alice@example\\\\.com\"}"))
                .as("escaping the dot does not hide the address").contains("email");
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"filter\":\"(?i)alice[@]example[.]com\"}"))
                .as("nor do one-character classes and flags").contains("email");
        assertThat(RedactedSearch.literalReading("(?i)a[.]b\\.c[^x][ab](?:d)\\d")).isEqualTo("a.b.c[^x][ab](?:d)\\d");
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"filter\":\"password=hunter22\"}"))
                .contains("secret", "search for the field name alone").doesNotContain("hunter22");
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"filter\":\"password=hunt\",\"aggregate\":\"count_over_time\"}"))
                .as("counts are an oracle too").contains("secret");
        assertThat(loki.queries).isEmpty();
        assertThat(loki.aggregations).isEmpty();
    }

    @Test
    void labelFiltersOnHiddenValuesOrSecretFields_areRefused() {
        FakeLogsBackend loki = leakyLines();
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"labels\":{\"user\":\"alice@example.com\"}}"))
                .contains("labels.user is text of the kind email", "cannot be probed").doesNotContain("alice");
        assertThat(ToolHarness.error(tool, "{\"service\":\"auth\",\"labels\":{\"db_password\":\"x\"}}"))
                .contains("labels.db_password names a secret-like field");
        assertThat(loki.queries).isEmpty();
        // an ordinary label filter still goes to the backend
        assertThat(ToolHarness.ok(tool, "{\"service\":\"auth\",\"labels\":{\"pod\":\"auth-1\"}}").getInt("returned")).isEqualTo(3);
    }

    @Test
    void aRegexThatMatchesOnlyInsideHiddenText_returnsNoLine() {
        // the backend matches raw lines; the gateway keeps a line only if the filter matches it as shown
        FakeLogsBackend loki = leakyLines();
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        JsonObject guess = ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"passw.rd=hunt\"}");
        assertThat(guess.getInt("returned")).isZero();
        assertThat(guess.getString("note")).contains("(the filter)", "as shown, after redaction");
        assertThat(guess.getBoolean("truncated")).isFalse();
        assertThat(loki.queries.getFirst().lineRegex()).contains("passw.rd=hunt");
        JsonObject wrong = ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"passw.rd=xyz\"}");
        assertThat(wrong.getJsonArray("lines")).isEqualTo(guess.getJsonArray("lines"));
        assertThat(wrong.getString("note")).as("a wrong guess reads the same").isEqualTo(guess.getString("note"));
        assertThat(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"token=\",\"level\":\"error\"}").getString("note"))
                .as("the note does not echo a filter the redactor would mangle").contains("(the filter, level error)")
                .doesNotContain("REDACTED");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"a.ice@\"}").getInt("returned")).isZero();

        // what the agent can see still matches: the field name, ordinary words
        assertThat(lineTexts(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"password=\"}")))
                .containsExactly("db connect password=[REDACTED:secret] host=db-1");
        assertThat(lineTexts(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"login ok\"}")))
                .containsExactly("login ok for [REDACTED:email]");
        assertThat(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"login|health\"}").getInt("returned")).isEqualTo(2);
    }

    @Test
    void aCutAnswerThatTheAsShownCheckEmptied_doesNotSayNothingMatched_orAdviseAWiderWindow() {
        FakeLogsBackend loki = new FakeLogsBackend("loki")
                .line("web", ago(10), Map.of(), "signed in from carol@example.net")
                .line("web", ago(20), Map.of(), "signed in from dave@example.net")
                .line("web", ago(30), Map.of(), "signed in from erin@example.net");
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"web\",\"filter\":\"example\",\"limit\":2}");
        assertThat(result.getInt("returned")).isZero();
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).startsWith("No line is shown for the last 15m (the filter)")
                .contains("older lines were not searched. Narrow the duration or the filter")
                .doesNotContain("No line matched", "Widen the duration");
    }

    @Test
    void aCatastrophicFilter_failsWithAReasonInsteadOfHangingTheCall() {
        // the backend (RE2) matches it in linear time; the gateway's own check backtracks, within a budget
        // here the raw line matches quickly, but once the address is redacted there is no '@' left and the
        // search backtracks through every way of picking twelve of the a's
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(1), Map.of(), "a".repeat(30) + " from bob@example.com");
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThat(ToolHarness.error(tool, "{\"service\":\"api\",\"filter\":\"(.*a){12}.*@\"}"))
                        .contains("filter backtracks too much", "simpler expression"));
    }

    @Test
    void aFilterThatRecursesPastTheStackOnALongLine_failsWithAReason_andShowsNoLine() {
        // java.util.regex recurses once per repetition of a group with alternatives: over a long line the check
        // of the lines as shown overflows the stack. The raw line matches at its '@' after a few characters;
        // redacted, it has no '@' left and the group repeats over the characters that follow, as many as the
        // gateway searches of a long line (Redactor.headExamined).
        String line = "alice@example.com " + "ab ".repeat(10_000);
        FakeLogsBackend loki = new FakeLogsBackend("loki").line("api", ago(1), Map.of(), line);
        QueryLogsTool tool = tool(new InMemorySources().add(loki));
        String error = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                ToolHarness.error(tool, "{\"service\":\"api\",\"filter\":\"@|(a|b| )*$\"}"));
        assertThat(error).contains("filter", "too deeply", "simpler expression").doesNotContain("alice", "abab");
    }

    @Test
    void withRedactionOff_filtersOnAnyTextAreTheOperatorsChoice() {
        FakeLogsBackend loki = leakyLines();
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), clock).redaction(false));
        assertThat(lineTexts(ToolHarness.ok(tool, "{\"service\":\"auth\",\"filter\":\"alice@example.com\"}")))
                .containsExactly("login ok for alice@example.com");
    }

    /** A logs source that answers like {@code backend} and, once it has, lets {@code after} run (moves a clock). */
    private static FakeLogsBackend answeringThen(FakeLogsBackend backend, Runnable after) {
        return new FakeLogsBackend(backend.source().name()) {
            @Override
            public dev.omcp.sdk.query.LogResult queryLogs(LogQuery query) throws ConnectorException {
                dev.omcp.sdk.query.LogResult answer = backend.queryLogs(query);
                after.run();
                return answer;
            }
        };
    }

    /** {@code count} lines of {@code service}, one a second back from now, each with an address to redact. */
    private static FakeLogsBackend manyLines(String service, int count) {
        FakeLogsBackend loki = new FakeLogsBackend("loki");
        for (int i = 1; i <= count; i++) {
            loki.line(service, ago(i), Map.of("pod", service + "-1"), "timeout calling 10.0.0." + (i % 250) + " (line " + i + ")");
        }
        return loki;
    }

    /**
     * A clock that stands still until {@link #tick} starts it, then moves {@code step} on at every
     * reading: work that reads it to check a deadline sees time pass as it goes, without a test that waits.
     */
    private static final class TickingClock extends java.time.Clock {
        private final ManualClock base = new ManualClock(NOW);
        private final Duration step;
        private volatile boolean ticking;

        TickingClock(Duration step) {
            this.step = step;
        }

        void tick() {
            ticking = true;
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            Instant now = base.instant();
            if (ticking) {
                base.advance(step);
            }
            return now;
        }
    }

    @Test
    void sourcesThatAnswerAtTheDeadline_leaveNoTimeToRedact_soNoLineIsShownAndTheAnswerSaysWhy() {
        // OMCP_TOOL_DEADLINE bounds the whole call, the work after the sources answered included
        FakeLogsBackend loki = answeringThen(manyLines("api", 5), () -> clock.advance(Toolkit.DEFAULT_DEADLINE));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");

        assertThat(result.getJsonArray("lines")).isEmpty();
        assertThat(result.getInt("returned")).isZero();
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getBoolean("partial")).isFalse();
        assertThat(result.getString("note")).contains("reached its deadline (20 s, OMCP_TOOL_DEADLINE)", "no line is shown",
                "limit").doesNotContain("No line matched", "do not match as shown");
    }

    @Test
    void whenTheDeadlinePassesWhileLinesAreRedacted_theNewestRedactedOnesAreShownAndTheRestLeftOut() {
        TickingClock ticking = new TickingClock(Duration.ofSeconds(1));
        FakeLogsBackend loki = answeringThen(manyLines("api", 100), ticking::tick);
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), ticking)
                .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(30)));
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"api\",\"limit\":100}");

        List<String> shown = lineTexts(result);
        assertThat(shown).isNotEmpty().hasSizeLessThan(100).hasSize(result.getInt("returned"));
        // newest first, with none skipped: the lines left out are the older ones
        for (int i = 0; i < shown.size(); i++) {
            assertThat(shown.get(i)).endsWith("(line " + (i + 1) + ")").contains("[REDACTED:ipv4]").doesNotContain("10.0.0.");
        }
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("reached its deadline (30 s, OMCP_TOOL_DEADLINE)",
                "the newest " + shown.size() + " lines are shown").doesNotContain("More lines matched than the");
    }

    @Test
    void whenTheDeadlinePassesWhileLinesAreCheckedAgainstTheFilter_onlyCheckedLinesAreShown() {
        TickingClock ticking = new TickingClock(Duration.ofSeconds(1));
        FakeLogsBackend loki = answeringThen(manyLines("api", 100), ticking::tick);
        QueryLogsTool tool = tool(Toolkit.builder(new InMemorySources().add(loki).registry(), ticking)
                .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(30)));
        JsonObject result = ToolHarness.ok(tool, "{\"service\":\"api\",\"filter\":\"timeout\",\"limit\":100}");

        assertThat(result.getInt("returned")).isPositive().isLessThan(100);
        assertThat(lineTexts(result)).allSatisfy(l -> assertThat(l).startsWith("timeout calling [REDACTED:ipv4]"));
        assertThat(result.getBoolean("truncated")).isTrue();
        assertThat(result.getString("note")).contains("reached its deadline (30 s, OMCP_TOOL_DEADLINE)", "checked them against the filter");
    }

    @Test
    void aClockThatMovesBeforeTheDeadline_stopsNothing() {
        FakeLogsBackend loki = answeringThen(manyLines("api", 5), () -> clock.advance(Toolkit.DEFAULT_DEADLINE.minusMillis(1)));
        JsonObject result = ToolHarness.ok(tool(new InMemorySources().add(loki)), "{\"service\":\"api\"}");
        assertThat(result.getInt("returned")).isEqualTo(5);
        assertThat(result.getBoolean("truncated")).isFalse();
        assertThat(result.containsKey("note")).isFalse();
    }
}
