package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus connector against a server that answers valid JSON of the wrong shape, or JSON
 * nested deeper than any reader of the gateway reads: every such answer is a failure of the kind
 * {@code BAD_RESPONSE} (or a health that is down), never an unexpected exception, which the
 * gateway treats as a connector bug.
 */
class HostilePrometheusIT {
    private static final String DEEP = "{\"status\":\"success\",\"data\":" + "[".repeat(3000) + "]".repeat(3000) + "}";
    /** A targets answer as Prometheus writes one when it scrapes nothing. */
    private static final String NO_TARGETS = "{\"status\":\"success\",\"data\":{\"activeTargets\":[],\"droppedTargets\":[]}}";
    /** The last words of a listing's line saying its targets answer gave nothing to list by. */
    private static final String FROM_LABEL_VALUES_ALONE = "; services are listed from the service labels' values alone, without targets "
            + "or targetsUp";
    private static final Map<String, String> ANSWERS = new ConcurrentHashMap<>();
    /** The raw query string of the last request to each path. */
    private static final Map<String, String> QUERIES = new ConcurrentHashMap<>();
    private static HttpServer server;
    private static PrometheusConnector connector;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", ex -> {
            QUERIES.put(ex.getRequestURI().getPath(), String.valueOf(ex.getRequestURI().getRawQuery()));
            String answer = ANSWERS.getOrDefault(ex.getRequestURI().getPath(), "{\"status\":\"success\",\"data\":[]}");
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        SourceConfig source = new SourceConfig("prom", "prometheus", "http://127.0.0.1:" + server.getAddress().getPort(), "",
                JsonObject.EMPTY_JSON_OBJECT);
        connector = (PrometheusConnector) new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS,
                Duration.ZERO).create(source, TestContexts.contexts(Clock.systemUTC()).contextFor(source)).toCompletableFuture().get();
    }

    @AfterAll
    static void stop() throws IOException {
        connector.close();
        server.stop(0);
    }

    @BeforeEach
    void reset() {
        ANSWERS.clear();
        QUERIES.clear();
    }

    @Test
    void metricDiscovery_asksForOneMetadataEntryPerMetric_theOnlyOneItReads() throws ConnectorException {
        ANSWERS.put("/api/v1/label/__name__/values", "{\"status\":\"success\",\"data\":[\"up\"]}");
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\",\"data\":{\"up\":[{\"type\":\"gauge\",\"help\":\"Up.\"}]}}");

        assertThat(connector.discoverMetrics("", 10)).singleElement()
                .satisfies(m -> assertThat(m.type()).isEqualTo("gauge"));
        // a server where many targets export one name with differing help answers every variant unless told otherwise
        assertThat(QUERIES.get("/api/v1/metadata")).isEqualTo("limit_per_metric=1");
    }

    @Test
    void metricDiscovery_passesOnWhatItsAnswersWarned_andCountsTheNamesTooLongToKeep_inOneLinePerKind() throws ConnectorException {
        // a query frontend says beside the names that a store did not answer; two names too long to keep were dropped without
        // a word, so name hints built on the list could not tell the agent that it may lack names
        ANSWERS.put("/api/v1/label/__name__/values", "{\"status\":\"success\",\"data\":[\"up\",\"" + "x".repeat(1025) + "\",\""
                + "y".repeat(4000) + "\",\"http_requests_total\"],\"warnings\":[\"store eu-1 did not answer\"],"
                + "\"infos\":[\"names were read from 2 of 3 shards\"]}");
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\",\"data\":{\"up\":[{\"type\":\"gauge\",\"help\":\"Up.\"}]},"
                + "\"warnings\":[\"metadata of store eu-2\\nevent=forged is missing\"]}");

        MetricDiscovery discovery = connector.metricDiscovery("", 10);

        assertThat(discovery.metrics()).extracting(m -> m.name() + ":" + m.type())
                .containsExactly("http_requests_total:unknown", "up:gauge");
        assertThat(discovery.warnings()).containsExactly(
                "metric names: store eu-1 did not answer",
                "metric names: info: names were read from 2 of 3 shards",
                "metric names: Prometheus answered values longer than 1024 characters (2); they were left out: no service or metric "
                        + "name is that long",
                "metric types and help: metadata of store eu-2 event=forged is missing");
        assertThat(connector.discoverMetrics("", 10)).as("the same metrics without the warnings").isEqualTo(discovery.metrics());
    }

    @Test
    void metricDiscovery_whoseAnswersSaidNothingBeside_warnsOfNothing() throws ConnectorException {
        ANSWERS.put("/api/v1/label/__name__/values", "{\"status\":\"success\",\"data\":[\"up\"]}");
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\",\"data\":{}}");

        assertThat(connector.metricDiscovery("", 10)).isEqualTo(new MetricDiscovery(List.of(new MetricInfo("up", "unknown", ""))));
    }

    @Test
    void aTargetsAnswerWithoutActiveTargets_listsFromLabelValues_andTheListingSaysSo() throws Exception {
        // once read as "nothing is scraped" without a word: every service lost its targets counts, and one only a target names
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"web\"]}");
        ANSWERS.put("/api/v1/targets", "{\"status\":\"success\",\"data\":{\"droppedTargets\":[]}}");
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            ServiceListing listing = fresh.serviceListing();

            assertThat(listing.services()).extracting(s -> s.name() + "/" + s.attributes().get("discoveredBy"))
                    .containsExactly("web/labels");
            assertThat(listing.warnings()).containsExactly("Prometheus answered targets without an 'activeTargets' list"
                    + FROM_LABEL_VALUES_ALONE);
        }
    }

    @Test
    void aTargetsAnswerWhoseActiveTargetsOrDataIsNoList_isRefused_andTheListingFromLabelValuesAloneSaysWhy() throws Exception {
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"web\"]}");
        Map<String, String> refusals = Map.of(
                "{\"activeTargets\":{\"labels\":{\"job\":\"api\"},\"health\":\"up\"}}", "whose 'activeTargets' (object) is not a list",
                "{\"activeTargets\":\"job=api\"}", "whose 'activeTargets' (string) is not a list",
                "{\"activeTargets\":null}", "whose 'activeTargets' (null) is not a list",
                "[{\"labels\":{\"job\":\"api\"}}]", "without the expected 'data' object");
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            for (Map.Entry<String, String> refusal : refusals.entrySet()) {
                ANSWERS.put("/api/v1/targets", "{\"status\":\"success\",\"data\":" + refusal.getKey() + "}");
                ServiceListing listing = fresh.serviceListing();

                assertThat(listing.services()).as(refusal.getKey()).extracting(s -> s.name() + "/" + s.attributes().get("discoveredBy"))
                        .containsExactly("web/labels");
                assertThat(listing.warnings()).as(refusal.getKey()).singleElement().asString()
                        .startsWith("the targets answer was refused (Prometheus answered targets " + refusal.getValue())
                        .contains("check what answers at the source URL")
                        .endsWith(FROM_LABEL_VALUES_ALONE);
            }
        }
    }

    @Test
    void targetLabelValuesThatAreNotStrings_areLeftOutCounted_warnedInTheListing_andLoggedOncePerSource() throws Exception {
        // the first target's job is a number: it is listed by the next service label that is a string, the second's not at all
        ANSWERS.put("/api/v1/targets", """
                {"status":"success","data":{"activeTargets":[
                  {"labels":{"job":5,"service":"billing","instance":"a:9100"},"health":"up"},
                  {"labels":{"job":{"x":1},"instance":["b"]},"health":"up"},
                  {"labels":{"job":"api","instance":"c:9100"},"health":"down"}]}}
                """);
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(PrometheusConnector.class);
        var events = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        events.start();
        logger.addAppender(events);
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            var services = fresh.listServices();
            ServiceListing listing = fresh.serviceListing();

            assertThat(listing.services()).isEqualTo(services);
            assertThat(listing.warnings()).containsExactly("Prometheus answered label values that are not strings (3); those labels were "
                    + "left out of their targets: a target whose service label was one is listed by the next service label whose value "
                    + "is a string, or not at all");

            assertThat(services).extracting(s -> s.name() + "=" + s.attributes().get("label") + "/" + s.attributes().get("targets"))
                    .containsExactly("api=job/1", "billing=service/1");
            assertThat(events.list).extracting(e -> e.getFormattedMessage()).singleElement().asString()
                    .contains("event=prometheus-target-labels-left-out", "source=small", "count=3", "logged once");
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void targetsWhoseHealthIsNotAString_areCountedNeitherUpNorDown_warnedInTheListing_andLoggedOncePerSource() throws Exception {
        // Prometheus writes health as "up", "down" or "unknown": a number, null, an object or none at all is no health
        ANSWERS.put("/api/v1/targets", """
                {"status":"success","data":{"activeTargets":[
                  {"labels":{"job":"api","instance":"a:9100"},"health":"up"},
                  {"labels":{"job":"api","instance":"b:9100"},"health":1},
                  {"labels":{"job":"api","instance":"c:9100"},"health":null},
                  {"labels":{"job":"api","instance":"d:9100"},"health":{"up":true}},
                  {"labels":{"job":"api","instance":"e:9100"}},
                  {"labels":{"job":"web","instance":"f:9100"},"health":"down"}]}}
                """);
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(PrometheusConnector.class);
        var events = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        events.start();
        logger.addAppender(events);
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            ServiceListing listing = fresh.serviceListing();
            fresh.serviceListing();

            assertThat(listing.services()).extracting(s -> s.name() + ":" + s.attributes().get("targets") + "/"
                    + s.attributes().get("targetsUp") + "/" + s.attributes().getOrDefault("targetsHealthUnreadable", "-"))
                    .containsExactly("api:5/1/4", "web:1/0/-");
            assertThat(listing.warnings()).containsExactly("Prometheus answered targets whose health is not a string (4); they are "
                    + "counted in their services' targets but neither as up nor as down (targetsHealthUnreadable)");
            assertThat(events.list).extracting(e -> e.getFormattedMessage()).singleElement().asString()
                    .contains("event=prometheus-target-health-unreadable", "source=small", "count=4", "logged once");
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void targetsThatAreNotObjects_orWithoutALabelsObject_areLeftOutCounted_warnedInTheListing_andLoggedOncePerSource()
            throws Exception {
        // each entry of activeTargets is an object with a labels object: a string, a number, null, a list, or labels of another
        // type is no target of Prometheus' (a proxy, an incompatible server), and once left it out without a word
        ANSWERS.put("/api/v1/targets", """
                {"status":"success","data":{"activeTargets":[
                  {"labels":{"job":"api","instance":"a:9100"},"health":"up"},
                  "job=api,instance=b:9100", 7, null, [{"labels":{"job":"api"}}],
                  {"labels":"job=api","health":"up"},
                  {"health":"up"}]}}
                """);
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(PrometheusConnector.class);
        var events = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        events.start();
        logger.addAppender(events);
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            ServiceListing listing = fresh.serviceListing();
            fresh.serviceListing();

            assertThat(listing.services()).extracting(s -> s.name() + ":" + s.attributes().get("targets") + "/"
                    + s.attributes().get("targetsUp")).containsExactly("api:1/1");
            assertThat(listing.warnings()).containsExactly("Prometheus answered targets that are not JSON objects, or whose labels are "
                    + "not one (6); they were left out: they count in no service's targets, and a service only they name is listed "
                    + "from label values, if at all");
            assertThat(fresh.listServices()).isEqualTo(listing.services());
            assertThat(events.list).extracting(e -> e.getFormattedMessage()).singleElement().asString()
                    .contains("event=prometheus-targets-unreadable", "source=small", "count=6", "logged once");
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void whatALabelValuesAnswerSaysItLacks_isTheListingsWarning_namingTheLabel() throws Exception {
        // a query frontend (Thanos, Mimir) says beside the values that a store did not answer: the listing may lack services
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"api\"],\"warnings\":[\"store eu-1 did not answer\"]}");
        ANSWERS.put("/api/v1/targets", NO_TARGETS);
        try (PrometheusConnector fresh = connectorWithin(AnswerBudget.ofBytes(64 << 20))) {
            ServiceListing listing = fresh.serviceListing();

            assertThat(listing.services()).extracting(s -> s.name()).containsExactly("api");
            assertThat(listing.warnings()).containsExactly("values of the label 'job': store eu-1 did not answer");
        }
    }

    @Test
    void buildInfoWhoseDataIsNoObject_isStillAHealthCheckThatAnswers() {
        ANSWERS.put("/api/v1/status/buildinfo", "{\"status\":\"success\",\"data\":5}");
        Health health = connector.health();
        assertThat(health.up()).isTrue();
        assertThat(health.message()).isEqualTo("Prometheus (version not reported)");
    }

    @Test
    void aVersionOfAMegabyteOnManyLines_reachesTheHealthMessageAsOneShortSafeLine() {
        String version = "2.55.0\\n" + "event=forged url=http://169.254.169.254/latest ".repeat(20_000);
        ANSWERS.put("/api/v1/status/buildinfo", "{\"status\":\"success\",\"data\":{\"version\":\"" + version + "\"}}");
        Health health = connector.health();
        assertThat(health.up()).isTrue();
        assertThat(health.message()).startsWith("Prometheus 2.55.0 event=forged url=<url>").doesNotContain("\n", "169.254")
                .hasSizeLessThanOrEqualTo("Prometheus ".length() + 65);
    }

    @Test
    void buildInfoNestedTooDeeply_fallsBackToTheReadinessEndpointAsAnyUnreadableAnswerDoes() {
        ANSWERS.put("/api/v1/status/buildinfo", DEEP);
        assertThat(connector.health().message()).isEqualTo("Prometheus-compatible server is ready");
    }

    @Test
    void aRangeAnswerLargerThanTheAnswerBudget_isRefusedAsUnavailable_withWhatToDo_andHoldsNothingAfter() throws Exception {
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"api\"]}");
        StringBuilder matrix = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[");
        for (int i = 0; i < 10_000; i++) {
            matrix.append(i == 0 ? "" : ",").append("[").append(1_767_225_600 + i).append(",\"0.25\"]");
        }
        ANSWERS.put("/api/v1/query_range", matrix.append("]}]}}").toString());
        AnswerBudget budget = AnswerBudget.ofBytes(256 << 10); // the ~200 KB answer read as tokens counts three times
        try (PrometheusConnector small = connectorWithin(budget)) {
            MetricQuery query = hourOfCpu();
            assertThatThrownBy(() -> small.queryMetrics(query))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE))
                    .hasMessage("Prometheus answered more than the gateway's memory budget for backend answers in flight (256 KiB) can "
                            + "hold; narrow the query (shorter window, fewer series, larger step) (an operator can raise "
                            + "OMCP_BACKEND_ANSWER_BUDGET_MIB)");
            assertThat(budget.inFlight()).isZero();
            assertThat(connector.queryMetrics(query).series()).as("the same answer within the default budget").hasSize(1);
        }
    }

    @Test
    void anAnswerOfManyTinySeries_isRefusedForTheHeapItsSeriesTake_whileAnOrdinaryAnswerOfTheSameSizePasses() throws Exception {
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"api\"]}");
        String head = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[";
        // 300 KB whose bytes, counted three times, fit the 4 MiB budget; but each "{}" is a series in memory, about 10 MB in all
        ANSWERS.put("/api/v1/query_range", head + "{}" + ",{}".repeat(99_999) + "]}}");
        AnswerBudget budget = AnswerBudget.ofBytes(4 << 20);
        try (PrometheusConnector small = connectorWithin(budget)) {
            MetricQuery query = hourOfCpu();
            assertThatThrownBy(() -> small.queryMetrics(query))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE))
                    .hasMessage("Prometheus answered more than the gateway's memory budget for backend answers in flight (4 MiB) can "
                            + "hold; narrow the query (shorter window, fewer series, larger step) (an operator can raise "
                            + "OMCP_BACKEND_ANSWER_BUDGET_MIB)");
            assertThat(budget.inFlight()).isZero();

            StringBuilder samples = new StringBuilder();
            for (int i = 0; i < 15_000; i++) { // five a second from 11:00, inside the asked hour as an ordinary answer's samples are
                samples.append(i == 0 ? "" : ",").append("[").append(1_767_265_200 + i / 5).append('.').append(i % 5 * 2)
                        .append(",\"0.25\"]");
            }
            ANSWERS.put("/api/v1/query_range", head + "{\"metric\":{\"job\":\"api\"},\"values\":[" + samples + "]}]}}");
            assertThat(ANSWERS.get("/api/v1/query_range")).hasSizeGreaterThan(300_000);
            assertThat(small.queryMetrics(query).series()).as("an ordinary answer of the same size").singleElement()
                    .satisfies(s -> assertThat(s.size()).isEqualTo(15_000));
            assertThat(budget.inFlight()).isZero();
        }
    }

    @Test
    void aServerThatCannotParseQuotedLabelNames_isRefusedSayingWhichNamesNeedPrometheus3() {
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"api\"]}");
        // what a 2.x server says of sum by ("http.route") (...)
        ANSWERS.put("/api/v1/query_range", "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"1:9: parse error: "
                + "unexpected string in grouping opts, expected label\"}");
        MetricQuery query = new MetricQuery("api", "http_requests_total", TimeRange.ending(Instant.parse("2026-01-01T12:00:00Z"),
                Duration.ofHours(1)), Duration.ofMinutes(1), List.of("http.route", "pod"), Map.of("service.name", "shop"));
        assertThatThrownBy(() -> connector.queryMetrics(query))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY))
                .hasMessageStartingWith("Prometheus rejected the query (bad_data): 1:9: parse error")
                .hasMessageEndingWith("The label names http.route, service.name are written quoted, as only Prometheus 3 and later "
                        + "parse them; with an older server use the label names it stores (letters, digits and '_')");

        MetricQuery classic = new MetricQuery("api", "cpu", query.range(), query.step(), List.of("pod"), Map.of());
        assertThatThrownBy(() -> connector.queryMetrics(classic)).as("a query without quoted names gets no such hint")
                .isInstanceOf(ConnectorException.class).message().doesNotContain("Prometheus 3");
    }

    /** A connector to the fake backend whose answers are read within {@code budget}. */
    private static PrometheusConnector connectorWithin(AnswerBudget budget) throws Exception {
        SourceConfig source = new SourceConfig("small", "prometheus", "http://127.0.0.1:" + server.getAddress().getPort(), "",
                JsonObject.EMPTY_JSON_OBJECT);
        return (PrometheusConnector) new PrometheusConnectorFactory(PrometheusConnectorFactory.DEFAULT_SERVICE_LABELS, Duration.ZERO)
                .create(source, TestContexts.contexts(Clock.systemUTC(), Duration.ofSeconds(5), budget).contextFor(source))
                .toCompletableFuture().get();
    }

    private static MetricQuery hourOfCpu() {
        return new MetricQuery("api", "cpu", TimeRange.ending(Instant.parse("2026-01-01T12:00:00Z"), Duration.ofHours(1)),
                Duration.ofMinutes(1), List.of(), Map.of());
    }

    @Test
    void labelValuesNestedTooDeeply_areABadResponse() {
        ANSWERS.put("/api/v1/label/job/values", DEEP);
        assertThatThrownBy(() -> connector.listServices())
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE));
    }

    @Test
    void aTargetsAnswerWithoutASuccessStatus_isNotReadAsTargets_theServicesComeFromLabelValuesAlone() throws ConnectorException {
        ANSWERS.put("/api/v1/label/job/values", "{\"status\":\"success\",\"data\":[\"web\"]}");
        String targets = "\"data\":{\"activeTargets\":[{\"labels\":{\"job\":\"api\"},\"health\":\"up\"}]}}";
        for (String answer : new String[] {"{" + targets, "{\"status\":\"partial\"," + targets,
                "{\"status\":\"success\"," + targets + "{\"status\":\"success\"," + targets}) {
            ANSWERS.put("/api/v1/targets", answer);
            assertThat(connector.listServices()).as(answer).singleElement().satisfies(s -> {
                assertThat(s.name()).isEqualTo("web");
                assertThat(s.attributes()).containsEntry("discoveredBy", "labels");
            });
        }
        // an answer that is JSON but no Prometheus answer: the listing says its services came from label values alone
        for (String answer : new String[] {"{" + targets, "{\"status\":\"partial\"," + targets}) {
            ANSWERS.put("/api/v1/targets", answer);
            assertThat(connector.serviceListing().warnings()).as(answer).singleElement().asString()
                    .startsWith("the targets answer was refused (Prometheus answered ")
                    .contains("check that the source URL points at a Prometheus server").endsWith(FROM_LABEL_VALUES_ALONE);
        }
        ANSWERS.put("/api/v1/targets", "{\"status\":\"success\"," + targets);
        assertThat(connector.listServices()).extracting(s -> s.name()).containsExactly("api", "web");
    }

    @Test
    void aMetadataAnswerWithoutASuccessStatus_orWithMoreAfterIt_isABadResponse_notMetricsOfUnknownType() {
        ANSWERS.put("/api/v1/label/__name__/values", "{\"status\":\"success\",\"data\":[\"up\"]}");
        String metadata = "\"data\":{\"up\":[{\"type\":\"gauge\",\"help\":\"Up.\"}]}}";
        ANSWERS.put("/api/v1/metadata", "{" + metadata);
        assertThatThrownBy(() -> connector.discoverMetrics("", 10)).isInstanceOfSatisfying(ConnectorException.class,
                e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                .hasMessageStartingWith("Prometheus answered without a 'status' of success or error");
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\"," + metadata + " {}");
        assertThatThrownBy(() -> connector.discoverMetrics("", 10))
                .hasMessageStartingWith("Prometheus answered more after its JSON object");
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}");
        assertThatThrownBy(() -> connector.discoverMetrics("", 10)).isInstanceOfSatisfying(ConnectorException.class,
                e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT))
                .hasMessage("Prometheus timed out (timeout): query timed out");
    }

    @Test
    void metadataWhoseTypeOrHelpIsNotAString_isABadResponse_namingTheMetric_notAnUnknownTypeOrEmptyHelp() throws ConnectorException {
        ANSWERS.put("/api/v1/label/__name__/values", "{\"status\":\"success\",\"data\":[\"up\",\"http_requests_total\"]}");
        for (String entry : new String[] {"{\"type\":7,\"help\":\"Up.\"}", "{\"type\":\"gauge\",\"help\":[\"Up.\"]}",
                "{\"type\":null,\"help\":\"Up.\"}"}) {
            ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\",\"data\":{\"up\":[" + entry + "]}}");
            assertThatThrownBy(() -> connector.discoverMetrics("", 10)).as(entry).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE))
                    .hasMessageStartingWith("Prometheus answered metadata of the metric 'up' whose ")
                    .hasMessageEndingWith("is not a string; Prometheus writes a metric's type and help as strings: check what answers "
                            + "at the source URL");
        }
        // absent, as for a metric without scrape metadata (remote-written), is unknown and empty as before
        ANSWERS.put("/api/v1/metadata", "{\"status\":\"success\",\"data\":{\"up\":[{\"unit\":\"\"}]}}");
        assertThat(connector.discoverMetrics("", 10)).extracting(m -> m.name() + ":" + m.type() + ":" + m.help())
                .containsExactly("http_requests_total:unknown:", "up:unknown:");
    }

    @Test
    void buildInfoWithoutASuccessStatus_isNoVersion_theReadinessEndpointSaysWhetherTheServerIsUp() {
        ANSWERS.put("/api/v1/status/buildinfo", "{\"data\":{\"version\":\"2.55.0\"}}");
        assertThat(connector.health().message()).isEqualTo("Prometheus-compatible server is ready");
        ANSWERS.put("/api/v1/status/buildinfo", "{\"status\":\"success\",\"data\":{\"version\":\"2.55.0\"}}");
        assertThat(connector.health().message()).isEqualTo("Prometheus 2.55.0");
    }
}
