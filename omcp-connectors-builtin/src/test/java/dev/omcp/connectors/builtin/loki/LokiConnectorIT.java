package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.backend.FakeBackend;
import dev.omcp.testkit.loki.LokiFake;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The loki connector against the recorded Loki fake (no binary needed). */
class LokiConnectorIT {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final TimeRange HOUR = new TimeRange(T0, T0.plus(Duration.ofHours(1)));
    private static LokiFake loki;
    private static LokiConnector connector;

    @BeforeAll
    static void start() throws Exception {
        loki = new LokiFake();
        Map<String, String> api = Map.of("service_name", "api", "env", "prod");
        Map<String, String> checkout = Map.of("service_name", "checkout/v2", "env", "prod");
        for (int i = 0; i < 30; i++) {
            String level = i % 3 == 0 ? "error" : "info";
            String tenant = i % 2 == 0 ? "acme" : "glo\"bex";
            loki.push(api, T0.plusSeconds(60L * i), "{\"level\":\"" + level + "\",\"tenant\":\"" + tenant.replace("\"", "\\\"")
                    + "\",\"msg\":\"request " + i + " done\"}");
        }
        loki.push(checkout, T0.plusSeconds(30), "level=ERROR msg=\"payment (declined)\" code=402");
        loki.push(checkout, T0.plusSeconds(90), "level=info msg=ok code=200");
        loki.push(Map.of("app", "legacy"), T0.plusSeconds(10), "plain text line");
        // what Kubernetes log agents write: the service under service_name, and namespace/app as job
        loki.push(Map.of("service_name", "billing", "job", "prod/billing"), T0.plusSeconds(20), "invoice sent");
        loki.push(Map.of("job", "cron/cleanup"), T0.plusSeconds(25), "removed 3 files");
        connector = create(JsonObject.EMPTY_JSON_OBJECT);
    }

    @AfterAll
    static void stop() {
        if (connector != null) {
            connector.close();
        }
        if (loki != null) {
            loki.close();
        }
    }

    private static LokiConnector create(JsonObject settings) throws Exception {
        return create(loki, settings);
    }

    private static LokiConnector create(LokiFake backend, JsonObject settings) throws Exception {
        SourceConfig source = new SourceConfig("logs", "loki", backend.url(), "", settings);
        var factory = new LokiConnectorFactory(LokiConnectorFactory.DEFAULT_SERVICE_LABELS, Duration.ofMinutes(1));
        return (LokiConnector) factory.create(source, TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(2)).contextFor(source))
                .toCompletableFuture().get();
    }

    private static LogQuery query(String service, Optional<String> regex, Optional<String> level, Map<String, String> labels, int limit) {
        return new LogQuery(service, HOUR, regex, level, labels, limit);
    }

    @Test
    void aSearchAsksLokiForTheHalfOpenWindow_andGetsItsLinesWithoutAWarning() throws Exception {
        // Loki returns lines at or after start and before end, the window's own [start, end)
        try (LokiFake edges = new LokiFake()) {
            Map<String, String> orders = Map.of("service_name", "orders");
            edges.push(orders, HOUR.start().minusNanos(1), "just before").push(orders, HOUR.start(), "at start")
                    .push(orders, HOUR.end().minusNanos(1), "just before end").push(orders, HOUR.end(), "at end");
            try (LokiConnector connector = create(edges, JsonObject.EMPTY_JSON_OBJECT)) {
                LogResult found = connector.queryLogs(new LogQuery("orders", HOUR, Optional.empty(), Optional.empty(), Map.of(), 10));
                assertThat(found.entries()).extracting(LogEntry::line).containsExactly("just before end", "at start");
                assertThat(found.warnings()).as("no line came back outside the window").isEmpty();
                assertThat(found.truncated()).isFalse();
            }
        }
    }

    @Test
    void healthReportsTheVersion() {
        assertThat(connector.health().up()).isTrue();
        assertThat(connector.health().message()).isEqualTo("Loki 3.1.0");
    }

    @Test
    void servicesComeFromTheFirstLabelThatHasThem() throws ConnectorException {
        assertThat(connector.listServices()).extracting(ServiceInfo::name)
                .containsExactly("api", "billing", "checkout/v2", "cron/cleanup", "legacy");
        assertThat(connector.listServices()).filteredOn(s -> s.name().equals("legacy")).singleElement()
                .satisfies(s -> assertThat(s.attributes()).containsEntry("label", "app"));
        assertThat(connector.listServices()).filteredOn(s -> s.name().equals("cron/cleanup")).singleElement()
                .satisfies(s -> assertThat(s.attributes()).containsEntry("label", "job"));
    }

    @Test
    void aStreamIsListedOnce_underItsFirstLabel_yetItsOtherNameStillFindsIt() throws ConnectorException {
        // billing's stream also carries job=prod/billing: one service, not two
        assertThat(connector.listServices()).extracting(ServiceInfo::name).doesNotContain("prod/billing");
        assertThat(connector.resolveServiceLabel("prod/billing")).contains("job");
        LogResult byJob = connector.queryLogs(query("prod/billing", Optional.empty(), Optional.empty(), Map.of(), 10));
        assertThat(byJob.entries()).extracting(LogEntry::line).containsExactly("invoice sent");
        assertThat(byJob.resolvedQuery()).isEqualTo("{job=\"prod/billing\"}");
    }

    @Test
    void aServerThatRejectsTheStreamSelector_getsThePlainQuestion_andTheListHoldsTheLaterNamesToo() throws Exception {
        LokiConnector plain = create(Json.createObjectBuilder().add("serviceLabels", "service_name,job").build());
        try {
            assertThat(plain.resolveServiceLabel("api")).contains("service_name"); // caches service_name's values
            loki.clearRequests();
            loki.failNext(FakeBackend.Answer.text(400, "parse error: unknown parameter query"));

            assertThat(plain.listServices()).extracting(ServiceInfo::name).contains("api", "cron/cleanup", "prod/billing");
            assertThat(loki.requests()).extracting(r -> r.query().containsKey("query")).containsExactly(true, false);
        } finally {
            plain.close();
        }
    }

    @Test
    void whatTheLabelValuesAnswersSayTheyLack_isTheListingsWarning_namingTheLabel_andStillSaidFromTheCache() throws Exception {
        assertThat(connector.serviceListing().warnings()).as("Loki said nothing beside the values").isEmpty();
        try (LokiFake partial = new LokiFake()) {
            partial.push(Map.of("service_name", "api"), T0.plusSeconds(5), "a").push(Map.of("job", "cron/cleanup"), T0.plusSeconds(6), "b");
            // the first label's values, then the second's through the stream selector: what a Loki whose queriers could not
            // ask every store (or a frontend in front of it) says beside them, and a value no service name is as long as
            partial.failNext(FakeBackend.Answer.json(200, "{\"status\":\"success\",\"data\":[\"api\",\"" + "x".repeat(1100)
                    + "\"],\"warnings\":[\"some ingesters did not answer, results may be partial\"]}"));
            partial.failNext(FakeBackend.Answer.json(200, "{\"status\":\"success\",\"warnings\":[\"query timed out\"],\"data\":[]}"));
            try (LokiConnector cut = create(partial, JsonObject.EMPTY_JSON_OBJECT)) {
                ServiceListing listing = cut.serviceListing();

                assertThat(listing.services()).extracting(ServiceInfo::name).containsExactly("api", "cron/cleanup");
                assertThat(listing.warnings()).containsExactly(
                        "values of the label 'service_name': some ingesters did not answer, results may be partial",
                        "values of the label 'service_name': Loki answered values longer than 1024 characters (1); they were left out: "
                                + "no service or metric name is that long",
                        "values of the label 'service': query timed out");
                assertThat(cut.listServices()).isEqualTo(listing.services());
                assertThat(cut.serviceListing().warnings()).as("the values come from the cache, and so do their warnings")
                        .isEqualTo(listing.warnings());
            }
        }
    }

    @Test
    void aLabelValueThatIsNotAString_failsTheListingAsABadResponse_ratherThanLeavingAServiceOutUnsaid() throws Exception {
        try (LokiFake hostile = new LokiFake()) {
            hostile.failNext(FakeBackend.Answer.json(200, "{\"status\":\"success\",\"data\":[\"api\",7]}"));
            try (LokiConnector broken = create(hostile, JsonObject.EMPTY_JSON_OBJECT)) {
                assertThatThrownBy(broken::serviceListing).isInstanceOfSatisfying(ConnectorException.class,
                                e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                        .hasMessage("Loki answered a value of the label 'service_name' that is not a string (a number); Loki writes every "
                                + "label value as a string: check what answers at the source URL");
            }
        }
    }

    @Test
    void whatLokiSaysAlongsideLinesOrCounts_reachesTheAnswer_andAnAnswerWithoutWarningsHasNone() throws Exception {
        assertThat(connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5)).warnings()).isEmpty();
        try (LokiFake warning = new LokiFake()) {
            warning.push(Map.of("service_name", "api"), T0.plusSeconds(5), "boom")
                    .warnWith("query timed out on some shards, results may be partial");
            LokiConnector partial = create(warning, JsonObject.EMPTY_JSON_OBJECT);
            try {
                LogResult lines = partial.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5));
                assertThat(lines.entries()).extracting(LogEntry::line).containsExactly("boom");
                assertThat(lines.warnings()).containsExactly("query timed out on some shards, results may be partial");

                LogQuery all = query("api", Optional.empty(), Optional.empty(), Map.of(), 5);
                assertThat(partial.aggregateLogs(new LogAggregation(all, LogAggregation.Function.SUM, List.of(), 0, Duration.ofMinutes(1)))
                        .warnings()).containsExactly("query timed out on some shards, results may be partial");
                assertThat(partial.aggregateLogs(new LogAggregation(all, LogAggregation.Function.TOPK, List.of("service_name"), 3,
                        Duration.ofMinutes(1))).warnings()).containsExactly("query timed out on some shards, results may be partial");
            } finally {
                partial.close();
            }
        }
    }

    @Test
    void linesComeBackNewestFirstAndLimited() throws ConnectorException {
        LogResult result = connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5));
        assertThat(result.entries()).hasSize(5);
        assertThat(result.truncated()).isTrue();
        assertThat(result.entries()).extracting(LogEntry::timestamp).isSortedAccordingTo((a, b) -> b.compareTo(a));
        assertThat(result.entries().get(0).line()).contains("request 29 done");
        assertThat(result.resolvedQuery()).isEqualTo("{service_name=\"api\"}");
    }

    @Test
    void levelLineRegexAndExtractedFieldsFilterOnTheBackend() throws ConnectorException {
        LogResult errors = connector.queryLogs(query("api", Optional.empty(), Optional.of("ERROR"), Map.of(), 100));
        assertThat(errors.entries()).hasSize(10).allSatisfy(e -> assertThat(e.line()).contains("\"level\":\"error\""));
        assertThat(errors.resolvedQuery()).isEqualTo("{service_name=\"api\"} | json | level=~\"(?i)(error|err)\"");

        LogResult tenant = connector.queryLogs(query("api", Optional.of("request 1[0-9] "), Optional.empty(),
                Map.of("tenant", "glo\"bex"), 100));
        assertThat(tenant.entries()).extracting(LogEntry::line).allSatisfy(l -> assertThat(l).contains("glo\\\"bex"));
        assertThat(tenant.entries()).hasSize(5);
        assertThat(tenant.truncated()).isFalse();
    }

    @Test
    void logfmtSourcesParseLogfmt() throws Exception {
        try (LokiConnector logfmt = create(Json.createObjectBuilder().add("logFormat", "logfmt").build())) {
            LogResult declined = logfmt.queryLogs(query("checkout/v2", Optional.empty(), Optional.of("error"), Map.of("code", "402"), 10));
            assertThat(declined.entries()).singleElement().satisfies(e -> assertThat(e.line()).contains("declined"));
        }
    }

    @Test
    void hostileValuesStayValues() throws ConnectorException {
        // a service, regex and label value that try to close the string and add their own stages
        assertThat(connector.queryLogs(query("api\"} |= \"", Optional.empty(), Optional.empty(), Map.of(), 10)).entries()).isEmpty();
        LogResult injected = connector.queryLogs(query("api", Optional.of("x\"} or {service_name=~\".+"), Optional.empty(), Map.of(), 10));
        assertThat(injected.entries()).isEmpty();
        LogResult level = connector.queryLogs(query("api", Optional.empty(), Optional.of(".*"), Map.of(), 10));
        assertThat(level.entries()).isEmpty(); // the level is matched literally, not as a regex
        assertThatThrownBy(() -> connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of("a\" | b", "x"), 10)))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY));
    }

    @Test
    void unknownServicesAnswerNothingWithoutQuerying() throws ConnectorException {
        loki.clearRequests();
        LogResult result = connector.queryLogs(query("nope", Optional.empty(), Optional.empty(), Map.of(), 10));
        assertThat(result.entries()).isEmpty();
        assertThat(result.resolvedQuery()).isEmpty();
        assertThat(loki.requests()).noneMatch(r -> r.path().contains("query"));
    }

    @Test
    void countOverTimeAndSumArePushedDownAsMetricQueries() throws ConnectorException {
        LogQuery errors = query("api", Optional.empty(), Optional.of("error"), Map.of(), 1);
        MetricResult count = connector.aggregateLogs(new LogAggregation(errors, LogAggregation.Function.SUM, List.of(), 0,
                Duration.ofMinutes(10)));
        assertThat(count.resolvedSeries())
                .isEqualTo("sum(count_over_time({service_name=\"api\"} | json | __error__=\"\" | level=~\"(?i)(error|err)\" [600s]))");
        assertThat(count.series()).singleElement().satisfies(s -> {
            double total = 0;
            for (int i = 0; i < s.size(); i++) {
                total += s.valueAt(i);
            }
            // non-overlapping 10-minute windows cover each error line once; the one written exactly
            // at the window's start belongs to the step before it (Loki's range windows are left-open)
            assertThat(total).isEqualTo(9);
        });

        MetricResult byTenant = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.empty(), Map.of(), 1),
                LogAggregation.Function.COUNT_OVER_TIME, List.of("tenant"), 0, Duration.ofMinutes(10)));
        assertThat(byTenant.series()).extracting(s -> s.labels().get("tenant")).containsExactlyInAnyOrder("acme", "glo\"bex");
    }

    @Test
    void countOverTimeAfterAParserCountsPerStream_notPerParsedField() throws ConnectorException {
        // every api line has its own msg ("request 3 done"...): a label once | json parsed it
        MetricResult errors = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.of("error"), Map.of(), 1),
                LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMinutes(10)));

        assertThat(errors.resolvedSeries())
                .isEqualTo("sum by (env, service_name) (count_over_time({service_name=\"api\"} | json | __error__=\"\""
                        + " | level=~\"(?i)(error|err)\" [600s]))");
        assertThat(errors.series()).singleElement().satisfies(s -> {
            assertThat(s.labels()).containsOnlyKeys("env", "service_name");
            assertThat(java.util.Arrays.stream(s.values()).sum()).isEqualTo(9);
        });
    }

    @Test
    void aServerWithoutTheSeriesApi_countsPerService() throws ConnectorException {
        connector.resolveServiceLabel("api"); // cached: the next request is the series question
        loki.failNext(FakeBackend.Answer.text(400, "unknown endpoint"));
        MetricResult errors = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.of("error"), Map.of(), 1),
                LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMinutes(10)));
        assertThat(errors.resolvedSeries()).startsWith("sum by (service_name) (count_over_time(");
        assertThat(errors.series()).singleElement().satisfies(s -> assertThat(s.labels()).containsOnlyKeys("service_name"));
    }

    @Test
    void aServerThatHasNoSeriesApiAtAll_countsPerServiceToo() throws ConnectorException {
        connector.resolveServiceLabel("api"); // cached: the next request is the series question
        // what a Loki-compatible server or a gateway that routes only the query APIs answers
        loki.failNext(FakeBackend.Answer.text(404, "404 page not found\n"));
        MetricResult errors = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.of("error"), Map.of(), 1),
                LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMinutes(10)));
        assertThat(errors.resolvedSeries()).startsWith("sum by (service_name) (count_over_time(");
        assertThat(errors.series()).singleElement().satisfies(s -> assertThat(s.labels()).containsOnlyKeys("service_name"));
    }

    @Test
    void streamLabelNamesNoLokiKeeps_tooManyOrTooLong_countPerService_insteadOfGroupingByAllOfThem() throws ConnectorException {
        StringBuilder many = new StringBuilder("{\"status\":\"success\",\"data\":[{\"service_name\":\"api\"");
        for (int i = 0; i < 10_000; i++) {
            many.append(",\"l").append(i).append("\":\"v\"");
        }
        String tooMany = many.append("}]}").toString();
        String tooLong = "{\"status\":\"success\",\"data\":[{\"service_name\":\"api\",\"" + "n".repeat(5_000) + "\":\"v\"}]}";
        for (String series : List.of(tooMany, tooLong)) {
            connector.resolveServiceLabel("api"); // cached: the next request is the series question
            loki.failNext(FakeBackend.Answer.json(200, series));
            MetricResult errors = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.of("error"), Map.of(),
                    1), LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMinutes(10)));

            // the LogQL sent and shown to the agent stays a query of one label, not one of ten thousand (or of a 5,000-character name)
            assertThat(errors.resolvedSeries()).startsWith("sum by (service_name) (count_over_time(").hasSizeLessThan(200);
            assertThat(errors.series()).singleElement().satisfies(s -> assertThat(s.labels()).containsOnlyKeys("service_name"));
        }
    }

    @Test
    void aCountOverMoreSeriesThanLokiAnswersFailsWithLokisAdvice() throws Exception {
        try (LokiFake busy = new LokiFake()) {
            for (int i = 0; i <= LokiFake.MAX_QUERY_SERIES; i++) {
                busy.push(Map.of("service_name", "orders"), T0.plusSeconds(1 + i), "{\"trace_id\":\"t" + i + "\"}");
            }
            try (LokiConnector orders = create(busy, JsonObject.EMPTY_JSON_OBJECT)) {
                LogAggregation byTrace = new LogAggregation(new LogQuery("orders", HOUR, Optional.empty(), Optional.empty(), Map.of(), 1),
                        LogAggregation.Function.SUM, List.of("trace_id"), 0, Duration.ofMinutes(15));
                assertThatThrownBy(() -> orders.aggregateLogs(byTrace)).isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("maximum number of series (500)", "topk()");
                });
            }
        }
    }

    @Test
    void aPlainTextLineAmongJsonOnes_isLeftOutOfCountsByField_insteadOfFailingTheWholeAggregate() throws Exception {
        try (LokiFake mixed = new LokiFake()) {
            Map<String, String> stream = Map.of("service_name", "orders");
            for (int i = 0; i < 6; i++) {
                mixed.push(stream, T0.plusSeconds(60L * i + 1), "{\"status\":\"" + (i % 3 == 0 ? "500" : "200") + "\"}");
            }
            // what a crashing service writes between its JSON lines: Loki refuses a metric query that counts such a line
            mixed.push(stream, T0.plusSeconds(30), "panic: runtime error: index out of range [3] with length 3");
            try (LokiConnector orders = create(mixed, JsonObject.EMPTY_JSON_OBJECT)) {
                LogQuery all = new LogQuery("orders", HOUR, Optional.empty(), Optional.empty(), Map.of(), 1);

                MetricResult byStatus = orders.aggregateLogs(new LogAggregation(all, LogAggregation.Function.SUM, List.of("status"), 0,
                        Duration.ofMinutes(15)));
                MetricResult top = orders.aggregateLogs(new LogAggregation(all, LogAggregation.Function.TOPK, List.of("status"), 1,
                        Duration.ofMinutes(1)));

                assertThat(byStatus.resolvedSeries())
                        .isEqualTo("sum by (status) (count_over_time({service_name=\"orders\"} | json | __error__=\"\" [900s]))");
                assertThat(byStatus.series()).extracting(s -> s.labels().get("status"), s -> java.util.Arrays.stream(s.values()).sum())
                        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("200", 4.0), org.assertj.core.groups.Tuple.tuple(
                                "500", 2.0));
                assertThat(top.series()).singleElement().satisfies(s -> assertThat(s.labels()).containsEntry("status", "200"));
                // a log search still shows the line, with what Loki says of it
                assertThat(orders.queryLogs(new LogQuery("orders", HOUR, Optional.empty(), Optional.empty(), Map.of("status", ""), 10))
                        .entries()).singleElement().satisfies(e -> assertThat(e.line()).startsWith("panic:"));
            }
        }
    }

    @Test
    void theCountsPerStepAddUpToTheLinesOfTheWindow_notOneStepMore() throws Exception {
        try (LokiFake busy = new LokiFake()) {
            // a line every 7 seconds from an hour before the window to after it
            int inWindow = 0;
            for (Instant t = T0.minus(Duration.ofHours(1)).plusMillis(250); t.isBefore(HOUR.end().plusSeconds(600)); t = t.plusSeconds(7)) {
                busy.push(Map.of("service_name", "orders"), t, "{\"level\":\"info\"}");
                if (t.isAfter(HOUR.start()) && !t.isAfter(HOUR.end())) {
                    inWindow++;
                }
            }
            try (LokiConnector orders = create(busy, JsonObject.EMPTY_JSON_OBJECT)) {
                MetricResult sum = orders.aggregateLogs(new LogAggregation(new LogQuery("orders", HOUR, Optional.empty(), Optional.empty(),
                        Map.of(), 1), LogAggregation.Function.SUM, List.of(), 0, Duration.ofMinutes(15)));

                Series series = sum.series().getFirst();
                assertThat(series.epochMillis()).as("the first point closes the window's first step, the last its end")
                        .containsExactly(T0.plus(Duration.ofMinutes(15)).toEpochMilli(), T0.plus(Duration.ofMinutes(30)).toEpochMilli(),
                                T0.plus(Duration.ofMinutes(45)).toEpochMilli(), HOUR.end().toEpochMilli());
                assertThat(java.util.Arrays.stream(series.values()).sum()).isEqualTo(inWindow);
            }
        }
    }

    @Test
    void aStepTooFineForTheWindowIsWidenedToOneThatStillTilesIt() throws ConnectorException {
        loki.clearRequests();
        MetricResult fine = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.empty(), Map.of(), 1),
                LogAggregation.Function.SUM, List.of(), 0, Duration.ofSeconds(1)));

        // an hour in at most 1000 points needs 3.6s: 4s divides the hour
        assertThat(fine.resolvedSeries()).endsWith("[4s]))");
        assertThat(fine.step()).as("the answer says which step ran").contains(Duration.ofSeconds(4));
        assertThat(loki.requests()).filteredOn(r -> r.path().endsWith("/query_range")).singleElement().satisfies(r -> {
            assertThat(r.query()).containsEntry("step", "4");
            assertThat(r.query()).containsEntry("start", T0.plusSeconds(4).getEpochSecond() + "000000000");
        });
        assertThat(LokiConnector.step(Duration.ofDays(7), Duration.ofSeconds(15))).isEqualTo(Duration.ofSeconds(630));
        assertThat(LokiConnector.step(Duration.ofDays(30), Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(2592));
    }

    @Test
    void topkRanksGroupsOverTheWholeWindow() throws ConnectorException {
        MetricResult top = connector.aggregateLogs(new LogAggregation(query("api", Optional.empty(), Optional.empty(), Map.of(), 1),
                LogAggregation.Function.TOPK, List.of("level"), 1, Duration.ofMinutes(1)));
        assertThat(top.resolvedSeries())
                .isEqualTo("topk(1, sum by (level) (count_over_time({service_name=\"api\"} | json | __error__=\"\" [3600s])))");
        assertThat(top.step()).as("an instant query has no step").isEmpty();
        List<Series> series = top.series();
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.labels()).containsEntry("level", "info");
            assertThat(s.valueAt(0)).isEqualTo(20);
        });
    }

    @Test
    void backendErrorsAreTypedWithLokisWordsAndSlowAnswersTimeOut() {
        loki.failNext(FakeBackend.Answer.text(400, "parse error at line 1, col 19: syntax error: unexpected IDENTIFIER"));
        assertThatThrownBy(() -> connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5)))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
                    assertThat(e.getMessage()).contains("parse error at line 1").doesNotContain("127.0.0.1");
                });
        loki.failNext(FakeBackend.Answer.text(503, "too many outstanding requests"));
        assertThatThrownBy(() -> connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5)))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE));
        loki.failNext(FakeBackend.Answer.text(401, "no org id"));
        assertThat(connector.health().up()).isFalse();
        loki.delayNext(Duration.ofSeconds(10));
        assertThatThrownBy(() -> connector.queryLogs(query("api", Optional.empty(), Optional.empty(), Map.of(), 5)))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
    }

    /** The LogQL of the log and aggregate queries Loki received, in order (not the label and series lookups). */
    private static List<String> logqlSent() {
        return loki.requests().stream().filter(r -> r.path().endsWith("/query_range") || r.path().endsWith("/query"))
                .map(r -> r.query().get("query")).toList();
    }

    @Test
    void theQueryTheListenerHears_isTheLogqlSent_andTheOneTheAnswerCarries() throws ConnectorException {
        LogQuery errors = query("api", Optional.of("request [0-9]+"), Optional.of("error"), Map.of("tenant", "acme"), 5);
        List<String> heard = new CopyOnWriteArrayList<>();
        loki.clearRequests();
        LogResult lines = connector.queryLogs(errors, heard::add);
        assertThat(lines.entries()).isNotEmpty();
        assertThat(heard).containsExactly(lines.resolvedQuery()).isEqualTo(logqlSent());

        LogQuery all = query("api", Optional.empty(), Optional.empty(), Map.of(), 1);
        // count_over_time without by asks for the stream labels first: that lookup is not the query heard
        List<LogAggregation> aggregations = List.of(
                new LogAggregation(errors, LogAggregation.Function.COUNT_OVER_TIME, List.of(), 0, Duration.ofMinutes(10)),
                new LogAggregation(all, LogAggregation.Function.SUM, List.of("tenant"), 0, Duration.ofSeconds(1)),
                new LogAggregation(errors, LogAggregation.Function.TOPK, List.of("level"), 3, Duration.ofMinutes(1)));
        for (LogAggregation aggregation : aggregations) {
            heard.clear();
            loki.clearRequests();
            MetricResult counts = connector.aggregateLogs(aggregation, heard::add);
            assertThat(heard).as(aggregation.function().name()).containsExactly(counts.resolvedSeries()).isEqualTo(logqlSent());
        }
    }

    @Test
    void aQueryLokiRefusesOrDoesNotAnswerInTime_hasStillBeenHeard_asSent() throws ConnectorException {
        LogQuery slow = new LogQuery("api", new TimeRange(T0.minus(Duration.ofDays(7)), T0), Optional.of("request .*done"),
                Optional.empty(), Map.of(), 100);
        String logql = connector.queryLogs(slow).resolvedQuery(); // also caches the service label: the next request is the query
        List<String> heard = new CopyOnWriteArrayList<>();

        loki.clearRequests();
        loki.failNext(FakeBackend.Answer.text(400, "parse error at line 1, col 19: syntax error: unexpected IDENTIFIER"));
        assertThatThrownBy(() -> connector.queryLogs(slow, heard::add)).isInstanceOf(ConnectorException.class);
        assertThat(heard).containsExactly(logql).isEqualTo(logqlSent());

        heard.clear();
        loki.clearRequests();
        loki.delayNext(Duration.ofSeconds(10));
        LogAggregation top = new LogAggregation(slow, LogAggregation.Function.TOPK, List.of("tenant"), 5, Duration.ofMinutes(1));
        assertThatThrownBy(() -> connector.aggregateLogs(top, heard::add))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
        assertThat(heard).containsExactly("topk(5, sum by (tenant) (count_over_time(" + logql + " | json | __error__=\"\" [604800s])))")
                .isEqualTo(logqlSent());
    }

    @Test
    void withoutAListener_theConnectorTellsNobody_andAnswersAlike() throws ConnectorException {
        LogQuery errors = query("api", Optional.empty(), Optional.of("error"), Map.of(), 5);
        assertThat(connector.queryLogs(errors)).isEqualTo(connector.queryLogs(errors, QueryListener.NONE));
    }

    @Test
    void tenantHeadersFromTheSourceReachLoki() throws Exception {
        loki.clearRequests();
        try (LokiConnector scoped = create(Json.createObjectBuilder()
                .add("headers", Json.createObjectBuilder().add("X-Scope-OrgID", "team-a")).build())) {
            scoped.health();
        }
        assertThat(loki.requests()).isNotEmpty().allSatisfy(r -> assertThat(r.headers()).containsEntry("x-scope-orgid", "team-a"));
    }
}
