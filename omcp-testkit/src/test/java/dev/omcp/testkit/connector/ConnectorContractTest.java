package dev.omcp.testkit.connector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonValue;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** spec 2.3: the contract check catches each way a connector can break the SDK's promises. */
class ConnectorContractTest {
    private static final SourceConfig SOURCE = new SourceConfig("t", "t", "http://mock", "", JsonValue.EMPTY_JSON_OBJECT);
    private static final SampleQueries SAMPLES = SampleQueries.of("checkout", TimeRange.ending(Instant.parse("2026-01-15T11:00:00Z"), Duration.ofHours(1)));
    private static final TraceSummary GOOD = new TraceSummary("4bf92f3577b34da6", "GET /", "checkout", Instant.parse("2026-01-15T10:30:00Z"), 12, 3, false);

    private static ConnectorManifest manifest(Capabilities capabilities) {
        return new ConnectorManifest(1, "t", "t", "1.0.0", "test", List.of("traces"), capabilities, JsonValue.EMPTY_JSON_OBJECT,
                Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }

    private static final Capabilities TRACES = new Capabilities(false, false, false, true, false);

    private static ContractReport check(Capabilities declared, Function<SourceConfig, Connector> connector) {
        return check(declared, SOURCE, (source, context) -> connector.apply(source));
    }

    /** The contract for a connector built from the source and the context (connectors that call a backend). */
    private static ContractReport check(Capabilities declared, SourceConfig source, BiFunction<SourceConfig, ConnectorContext, Connector> connector) {
        return check(declared, source, SAMPLES, connector);
    }

    private static ContractReport check(Capabilities declared, SourceConfig source, SampleQueries samples,
            BiFunction<SourceConfig, ConnectorContext, Connector> connector) {
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return ConnectorContractTest.manifest(declared);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig s, ConnectorContext context) {
                return CompletableFuture.completedFuture(connector.apply(s, context));
            }
        };
        return ConnectorContract.check(factory, manifest(declared), source, TestConnectorContext.defaults(), samples);
    }

    /** A connector answering traces with a fixed list. */
    private record TracesConnector(SourceConfig source, List<TraceSummary> answer, boolean up) implements Connector, TracesCapability {
        @Override
        public Health health() {
            return new Health(up, up ? "fine" : "503 from backend", Duration.ZERO);
        }

        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) {
            return answer;
        }

        @Override
        public void close() {}
    }

    /** A connector whose searchTraces (the gateway's call) answers other than its queryTraces. */
    private record SearchingConnector(SourceConfig source, TraceResult searched) implements Connector, TracesCapability {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) {
            return List.of(GOOD);
        }

        @Override
        public TraceResult searchTraces(TraceQuery query) {
            return searched;
        }

        @Override
        public void close() {}
    }

    /** A connector whose serviceListing (the gateway's call) answers other than its listServices. */
    private record ListingConnector(SourceConfig source, ServiceListing listing) implements Connector, ServiceListingCapability {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public List<ServiceInfo> listServices() {
            return List.of(new ServiceInfo("api", Map.of()));
        }

        @Override
        public ServiceListing serviceListing() {
            return listing;
        }

        @Override
        public void close() {}
    }

    /** A connector implementing no capability at all. */
    private record BareConnector(SourceConfig source) implements Connector {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    @Test
    void aConformingConnector_passes() {
        ContractReport report = check(TRACES, source -> new TracesConnector(source, List.of(GOOD), true));
        assertThat(report.failures()).isEmpty();
        assertThat(report.passed()).contains("create() completed with a connector", "health() is up: fine", "TracesCapability: 1 traces", "close() returned");
    }

    @Test
    void aDeclaredCapabilityThatIsNotImplemented_fails() {
        ContractReport report = check(TRACES, BareConnector::new);
        assertThat(report.failures()).containsExactly("the manifest declares capabilities.queryTraces but the connector does not implement "
                + "TracesCapability: implement it, or set capabilities.queryTraces to false in the manifest");
    }

    @Test
    void anImplementedCapabilityThatIsNotDeclared_isOnlyNotedAndNotCalled() {
        ContractReport report = check(new Capabilities(false, false, false, false, false), source -> new TracesConnector(source, null, true));
        assertThat(report.failures()).isEmpty();
        assertThat(report.notes()).containsExactly(
                "the connector implements TracesCapability but the manifest does not declare capabilities.queryTraces; the gateway will not route to it");
    }

    @Test
    void aCapabilityThatThrowsOnTheSample_fails() {
        ContractReport report = check(new Capabilities(false, false, true, false, false), source -> new ThrowingServices(source));
        assertThat(report.failures()).containsExactly("ServiceListingCapability threw on the sample query: ConnectorException(BAD_RESPONSE): garbled");
    }

    private record ThrowingServices(SourceConfig source) implements Connector, ServiceListingCapability {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public List<ServiceInfo> listServices() throws ConnectorException {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "garbled");
        }

        @Override
        public void close() {}
    }

    @Test
    void valuesBreakingTheSdkPromises_fail() {
        TraceSummary upperCase = new TraceSummary("4BF92F", "x", "checkout", Instant.EPOCH, 1, 1, false);
        TraceSummary noSpans = new TraceSummary("abc", "x", "checkout", Instant.EPOCH, -1, 0, false);
        ContractReport report = check(TRACES, source -> new TracesConnector(source, List.of(upperCase, noSpans), true));
        assertThat(report.failures()).containsExactly(
                "TracesCapability: trace id '4BF92F' is not lower-case hex: give trace ids in lower-case hex (a hex id in capitals "
                        + "through toLowerCase(Locale.ROOT))",
                "TracesCapability: trace abc has a duration of -1.0 ms; a duration the backend did not tell is "
                        + "TraceSummary.UNKNOWN_DURATION (NaN)",
                "TracesCapability: trace abc has a spanCount of 0: count the trace's spans (a trace the backend found has at least one)");
    }

    @Test
    void anUnknownDuration_isNaN_whichTheContractAllows_butAnInfiniteOneIsABug() {
        TraceSummary unknown = new TraceSummary("abc", "x", "checkout", TraceSummary.UNKNOWN_START, TraceSummary.UNKNOWN_DURATION,
                1, false);
        assertThat(check(TRACES, source -> new TracesConnector(source, List.of(unknown), true)).failures()).isEmpty();
        TraceSummary infinite = new TraceSummary("abd", "x", "checkout", Instant.EPOCH, Double.POSITIVE_INFINITY, 1, false);
        assertThat(check(TRACES, source -> new TracesConnector(source, List.of(infinite), true)).failures()).containsExactly(
                "TracesCapability: trace abd has a duration of Infinity ms; a duration the backend did not tell is "
                        + "TraceSummary.UNKNOWN_DURATION (NaN)");
    }

    @Test
    void aNullAnswerOrADownHealth_fails() {
        ContractReport report = check(TRACES, source -> new TracesConnector(source, null, false));
        assertThat(report.failures()).containsExactly(
                "health() says down against the mock: 503 from backend: make the mock answer what health() asks, or make health() "
                        + "read its answer as up",
                "TracesCapability: returned null: return an empty answer when there is nothing, or throw a ConnectorException when "
                        + "the call failed");
    }

    @Test
    void aFactoryThatFails_isReportedWithTheReason() {
        ConnectorFactory failing = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return ConnectorContractTest.manifest(TRACES);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                return CompletableFuture.failedFuture(new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "401 from the backend"));
            }
        };
        ContractReport report = ConnectorContract.check(failing, manifest(TRACES), SOURCE, TestConnectorContext.defaults(), SAMPLES);
        assertThat(report.conforms()).isFalse();
        assertThat(report.failures()).containsExactly("create() failed: ConnectorException(UNAUTHORIZED): 401 from the backend");
    }

    private static ContractReport checkFactory(Function<SourceConfig, CompletionStage<Connector>> create) {
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return ConnectorContractTest.manifest(TRACES);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
                return create.apply(source);
            }
        };
        return ConnectorContract.check(factory, manifest(TRACES), SOURCE, TestConnectorContext.defaults(), SAMPLES);
    }

    @Test
    void aFactoryThatThrowsOrCompletesWithNull_isToldHowToFailInstead() {
        ContractReport threw = checkFactory(source -> {
            throw new IllegalArgumentException("no url");
        });
        ContractReport withNull = checkFactory(source -> CompletableFuture.completedFuture(null));

        assertThat(threw.failures()).containsExactly("create() threw instead of returning a failed stage: "
                + "java.lang.IllegalArgumentException: no url: return CompletableFuture.failedFuture(new ConnectorException(kind, "
                + "message)) instead");
        assertThat(withNull.failures()).containsExactly("create() completed with null: complete it with the connector, or fail it "
                + "with a ConnectorException that says what is wrong");
    }

    @Test
    void aConnectorThatForgetsItsSource_fails() {
        SourceConfig other = new SourceConfig("other", "t", "http://mock", "", JsonValue.EMPTY_JSON_OBJECT);
        ContractReport report = check(TRACES, source -> new TracesConnector(other, List.of(), true));
        assertThat(report.failures()).containsExactly("source() does not return the source the connector was created for: return the "
                + "SourceConfig that create() was given");
    }

    /** A traces connector that is up and promises an interrupt ends its calls. */
    private interface InterruptibleTraces extends Connector, TracesCapability {
        @Override
        default Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        default boolean interruptible() {
            return true;
        }

        @Override
        default void close() {}
    }

    /** Traces over HTTP: one GET of the source URL per query, through the context's client, which an interrupt ends. */
    private record HttpTraces(SourceConfig source, ConnectorContext context) implements InterruptibleTraces {
        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(source.url())).timeout(context.requestTimeout()).build();
                context.httpClient().send(request, HttpResponse.BodyHandlers.discarding());
                return List.of(GOOD);
            } catch (IOException e) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "backend unreachable");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "interrupted");
            }
        }
    }

    private static HttpServer answeringBackend() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(200, -1);
            }
        });
        server.start();
        return server;
    }

    @Test
    void aConnectorThatSaysAnInterruptEndsItsCalls_isCheckedAgainstABackendThatNeverAnswers() throws IOException {
        HttpServer backend = answeringBackend();
        try {
            SourceConfig source = new SourceConfig("t", "t", "http://127.0.0.1:" + backend.getAddress().getPort() + "/api", "",
                    JsonValue.EMPTY_JSON_OBJECT);
            ContractReport report = check(TRACES, source, HttpTraces::new);

            assertThat(report.failures()).isEmpty();
            assertThat(report.passed()).contains("TracesCapability: 1 traces", "TracesCapability ends when interrupted, as interruptible() promises");
        } finally {
            backend.stop(0);
        }
    }

    /** Says an interrupt ends its calls, but waits for any backend other than the mock {@link #deafly}. */
    private record DeafTraces(SourceConfig source, ConnectorContext context, AtomicBoolean release) implements InterruptibleTraces {
        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) {
            if (!source.url().equals(SOURCE.url())) {
                deafly(context, source.url(), release);
            }
            return List.of(GOOD);
        }
    }

    /**
     * A GET of {@code url} through the context's client whose interrupt is swallowed: the thread
     * spins on until released, the bug a connector that says {@code interruptible()} must not have.
     * A backend that answers (even with an error) ends it at once.
     */
    private static void deafly(ConnectorContext context, String url, AtomicBoolean release) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(context.requestTimeout()).build();
            context.httpClient().send(request, HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // answered or not, the call goes on
        } catch (InterruptedException e) {
            while (!release.get()) {
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void aConnectorThatSaysAnInterruptEndsItsCallsButIgnoresIt_fails() {
        AtomicBoolean release = new AtomicBoolean();
        try {
            ContractReport report = check(TRACES, SOURCE, (source, context) -> new DeafTraces(source, context, release));

            assertThat(report.failures()).containsExactly("interruptible() is true, but TracesCapability did not end within 2 s of an "
                    + "interrupt while its backend did not answer: the gateway would wait for it past the tool's timeout");
            assertThat(report.passed()).contains("TracesCapability: 1 traces");
        } finally {
            release.set(true);
        }
    }

    /**
     * Logs over HTTP through the context's client, which an interrupt ends, and says so; with
     * {@code deafAggregates} its aggregates wait for any backend but the mock at {@code mockUrl}
     * {@link #deafly}.
     */
    private record HttpLogs(SourceConfig source, ConnectorContext context, String mockUrl, AtomicBoolean release, boolean deafAggregates)
            implements Connector, LogsCapability, LogAggregatesCapability {
        private void get() throws ConnectorException {
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(source.url())).timeout(context.requestTimeout()).build();
                context.httpClient().send(request, HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "backend unreachable");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
            }
        }

        @Override
        public LogResult queryLogs(LogQuery query) throws ConnectorException {
            return queryLogs(query, QueryListener.NONE);
        }

        @Override
        public LogResult queryLogs(LogQuery query, QueryListener listener) throws ConnectorException {
            listener.sending(LokiLike.logql(query));
            get();
            return new LogResult(List.of(), false, LokiLike.logql(query));
        }

        @Override
        public MetricResult aggregateLogs(LogAggregation aggregation) throws ConnectorException {
            return aggregateLogs(aggregation, QueryListener.NONE);
        }

        @Override
        public MetricResult aggregateLogs(LogAggregation aggregation, QueryListener listener) throws ConnectorException {
            String query = "sum(" + LokiLike.logql(aggregation.query()) + ")";
            listener.sending(query);
            if (deafAggregates) {
                if (!source.url().equals(mockUrl)) {
                    deafly(context, source.url(), release);
                }
            } else {
                get();
            }
            return new MetricResult(List.of(), query, "service", Optional.of(aggregation.step()));
        }

        @Override
        public boolean interruptible() {
            return true;
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    private static ContractReport checkHttpLogs(HttpServer backend, AtomicBoolean release, boolean deafAggregates) {
        String url = "http://127.0.0.1:" + backend.getAddress().getPort() + "/api";
        SourceConfig source = new SourceConfig("t", "t", url, "", JsonValue.EMPTY_JSON_OBJECT);
        return check(LOGS, source, AGGREGATING, (s, context) -> new HttpLogs(s, context, url, release, deafAggregates));
    }

    @Test
    void anInterruptibleLogsConnector_hasItsListenerMethodsAndItsAggregatesInterrupted() throws IOException {
        HttpServer backend = answeringBackend();
        try {
            ContractReport report = checkHttpLogs(backend, new AtomicBoolean(), false);

            assertThat(report.failures()).isEmpty();
            assertThat(report.passed()).contains("LogsCapability ends when interrupted, as interruptible() promises",
                    "LogAggregatesCapability ends when interrupted, as interruptible() promises");
        } finally {
            backend.stop(0);
        }
    }

    @Test
    void anInterruptibleLogsConnectorWhoseAggregatesIgnoreTheInterrupt_fails() throws IOException {
        // the gateway runs aggregateLogs on the tool call's thread too, and interrupts it at the timeout
        HttpServer backend = answeringBackend();
        AtomicBoolean release = new AtomicBoolean();
        try {
            ContractReport report = checkHttpLogs(backend, release, true);

            assertThat(report.failures()).containsExactly("interruptible() is true, but LogAggregatesCapability did not end within 2 s "
                    + "of an interrupt while its backend did not answer: the gateway would wait for it past the tool's timeout");
            assertThat(report.passed()).contains("LogsCapability ends when interrupted, as interruptible() promises");
        } finally {
            release.set(true);
            backend.stop(0);
        }
    }

    /**
     * Metrics over HTTP through the context's client, which an interrupt ends, and says so; with
     * {@code deafDiscovery} its discovery waits for any backend but the mock at {@code mockUrl}
     * {@link #deafly}.
     */
    private record HttpMetrics(SourceConfig source, ConnectorContext context, String mockUrl, AtomicBoolean release, boolean deafDiscovery)
            implements Connector, MetricsCapability, MetricDiscoveryCapability {
        private void get() throws ConnectorException {
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(source.url())).timeout(context.requestTimeout()).build();
                context.httpClient().send(request, HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "backend unreachable");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
            }
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            get();
            return new MetricResult(List.of(), "up", "service");
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
            if (deafDiscovery) {
                if (!source.url().equals(mockUrl)) {
                    deafly(context, source.url(), release);
                }
            } else {
                get();
            }
            // as a backend that knows only the sample service
            return service.equals(SAMPLES.service()) ? List.of(new MetricInfo("up", "gauge", "")) : List.of();
        }

        @Override
        public boolean interruptible() {
            return true;
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    private static ContractReport checkHttpMetrics(HttpServer backend, AtomicBoolean release, boolean deafDiscovery) {
        String url = "http://127.0.0.1:" + backend.getAddress().getPort() + "/api";
        SourceConfig source = new SourceConfig("t", "t", url, "", JsonValue.EMPTY_JSON_OBJECT);
        return check(new Capabilities(true, false, false, false, false), source,
                (s, context) -> new HttpMetrics(s, context, url, release, deafDiscovery));
    }

    @Test
    void anInterruptibleMetricsConnector_hasItsDiscoveryInterruptedToo() throws IOException {
        HttpServer backend = answeringBackend();
        try {
            ContractReport report = checkHttpMetrics(backend, new AtomicBoolean(), false);

            assertThat(report.failures()).isEmpty();
            assertThat(report.passed()).contains("MetricsCapability ends when interrupted, as interruptible() promises",
                    "MetricDiscoveryCapability ends when interrupted, as interruptible() promises");
        } finally {
            backend.stop(0);
        }
    }

    @Test
    void anInterruptibleMetricsConnectorWhoseDiscoveryIgnoresTheInterrupt_fails() throws IOException {
        // query_metrics' name suggestions call discoverMetrics on the tool call's thread and interrupt it at the timeout
        HttpServer backend = answeringBackend();
        AtomicBoolean release = new AtomicBoolean();
        try {
            ContractReport report = checkHttpMetrics(backend, release, true);

            assertThat(report.failures()).containsExactly("interruptible() is true, but MetricDiscoveryCapability did not end within 2 s "
                    + "of an interrupt while its backend did not answer: the gateway would wait for it past the tool's timeout");
            assertThat(report.passed()).contains("MetricsCapability ends when interrupted, as interruptible() promises");
        } finally {
            release.set(true);
            backend.stop(0);
        }
    }

    /** Interruptible metrics whose overridden metricDiscovery (the gateway's call) ignores an interrupt; discoverMetrics does not. */
    private record DeafMetricDiscovery(SourceConfig source, ConnectorContext context, String mockUrl, AtomicBoolean release)
            implements Connector, MetricsCapability, MetricDiscoveryCapability {
        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            return new MetricResult(List.of(), "up", "service");
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) {
            return service.equals(SAMPLES.service()) ? List.of(new MetricInfo("up", "gauge", "")) : List.of();
        }

        @Override
        public MetricDiscovery metricDiscovery(String service, int limit) {
            if (!source.url().equals(mockUrl)) {
                deafly(context, source.url(), release);
            }
            return new MetricDiscovery(discoverMetrics(service, limit));
        }

        @Override
        public boolean interruptible() {
            return true;
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    @Test
    void anInterruptibleConnectorWhoseOverriddenMetricDiscoveryIgnoresTheInterrupt_fails() throws IOException {
        HttpServer backend = answeringBackend();
        AtomicBoolean release = new AtomicBoolean();
        try {
            String url = "http://127.0.0.1:" + backend.getAddress().getPort() + "/api";
            SourceConfig source = new SourceConfig("t", "t", url, "", JsonValue.EMPTY_JSON_OBJECT);
            ContractReport report = check(new Capabilities(true, false, false, false, false), source,
                    (s, context) -> new DeafMetricDiscovery(s, context, url, release));

            assertThat(report.failures()).containsExactly("interruptible() is true, but MetricDiscoveryCapability did not end within 2 s "
                    + "of an interrupt while its backend did not answer: the gateway would wait for it past the tool's timeout");
        } finally {
            release.set(true);
            backend.stop(0);
        }
    }

    @Test
    void aConnectorThatMakesNoSuchPromise_isNotInterrupted() {
        ContractReport report = check(TRACES, source -> new TracesConnector(source, List.of(GOOD), true));
        assertThat(report.passed()).noneMatch(line -> line.contains("interrupt"));
        assertThat(report.notes()).isEmpty();
    }

    private static final Capabilities LOGS = new Capabilities(false, true, false, false, false);
    private static final Instant LINE_AT = Instant.parse("2026-01-15T10:45:00Z");

    /**
     * A logs connector shaped like the builtin Loki one: each one-argument method is its two-argument
     * twin with {@link QueryListener#NONE}, and the twin tells the query it sends. {@code told} turns
     * the query the answer carries into the text told, so a test can make the two differ.
     */
    private record LokiLike(SourceConfig source, Function<String, String> told) implements Connector, LogsCapability, LogAggregatesCapability {
        LokiLike(SourceConfig source) {
            this(source, Function.identity());
        }

        static String logql(LogQuery query) {
            return "{service=\"" + query.service() + "\"}";
        }

        @Override
        public LogResult queryLogs(LogQuery query) throws ConnectorException {
            return queryLogs(query, QueryListener.NONE);
        }

        @Override
        public LogResult queryLogs(LogQuery query, QueryListener listener) {
            listener.sending(told.apply(logql(query)));
            return new LogResult(List.of(new LogEntry(LINE_AT, "boom", Map.of("service", query.service()))), false, logql(query));
        }

        @Override
        public MetricResult aggregateLogs(LogAggregation aggregation) throws ConnectorException {
            return aggregateLogs(aggregation, QueryListener.NONE);
        }

        @Override
        public MetricResult aggregateLogs(LogAggregation aggregation, QueryListener listener) {
            String logql = "sum(count_over_time(" + logql(aggregation.query()) + " [" + aggregation.step().toSeconds() + "s]))";
            listener.sending(told.apply(logql));
            return new MetricResult(List.of(new Series(Map.of(), new long[] {LINE_AT.toEpochMilli()}, new double[] {1})), logql, "service",
                    Optional.of(aggregation.step()));
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    /** A logs connector written before the listener existed: the SDK's defaults, which tell nothing. */
    private record Untold(SourceConfig source) implements Connector, LogsCapability, LogAggregatesCapability {
        @Override
        public LogResult queryLogs(LogQuery query) {
            return new LogResult(List.of(), false, LokiLike.logql(query));
        }

        @Override
        public MetricResult aggregateLogs(LogAggregation aggregation) {
            return new MetricResult(List.of(), "sum(" + LokiLike.logql(aggregation.query()) + ")", "service");
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    private static final SampleQueries AGGREGATING = SAMPLES.withLogAggregation(
            new LogAggregation(SAMPLES.logs(), LogAggregation.Function.SUM, List.of(), 0, Duration.ofMinutes(1)));

    private static ContractReport checkLogs(SampleQueries samples, Function<SourceConfig, Connector> connector) {
        return check(LOGS, SOURCE, samples, (source, context) -> connector.apply(source));
    }

    @Test
    void aConnectorThatTellsTheQueryItsAnswerRan_passes_forLinesAndForAggregates() {
        ContractReport report = checkLogs(AGGREGATING, LokiLike::new);

        assertThat(report.failures()).isEmpty();
        assertThat(report.notes()).isEmpty();
        assertThat(report.passed()).contains("LogsCapability: 1 lines",
                "LogsCapability: queryLogs(query, listener) tells its listener the query its answer ran: '{service=\"checkout\"}'",
                "LogAggregatesCapability: 1 series",
                "LogAggregatesCapability: aggregateLogs(aggregation, listener) tells its listener the query its answer ran: "
                        + "'sum(count_over_time({service=\"checkout\"} [60s]))'");
    }

    @Test
    void aConnectorThatTellsNothing_passes_andTheReportSaysSo() {
        // telling is optional: the SDK's defaults keep a connector written before the listener working
        ContractReport report = checkLogs(AGGREGATING, Untold::new);

        assertThat(report.failures()).isEmpty();
        assertThat(report.notes()).containsExactly(
                "LogsCapability: queryLogs(query, listener) tells its listener no query (optional: without it, a call of this source "
                        + "that fails or times out is shown without the query it was running)",
                "LogAggregatesCapability: aggregateLogs(aggregation, listener) tells its listener no query (optional: without it, a call of "
                        + "this source that fails or times out is shown without the query it was running)");
        assertThat(report.passed()).noneMatch(line -> line.contains("tells its listener"));
    }

    @Test
    void aConnectorThatTellsAQueryOtherThanTheOneItsAnswerCarries_fails_namingBoth() {
        // a typical slip: telling the query before a last rewrite (here, the level filter added after)
        ContractReport report = checkLogs(AGGREGATING, source -> new LokiLike(source, sent -> sent.replace("}", ", level=\"error\"}")));

        assertThat(report.failures()).containsExactly(
                "LogsCapability: the last query queryLogs(query, listener) told its listener, '{service=\"checkout\", level=\"error\"}', "
                        + "is not the resolvedQuery of its answer, '{service=\"checkout\"}': tell the very text you send, of the query "
                        + "whose answer you return",
                "LogAggregatesCapability: the last query aggregateLogs(aggregation, listener) told its listener, "
                        + "'sum(count_over_time({service=\"checkout\", level=\"error\"} [60s]))', is not the resolvedSeries of its answer, "
                        + "'sum(count_over_time({service=\"checkout\"} [60s]))': tell the very text you send, of the query whose answer "
                        + "you return");
    }

    @Test
    void longQueriesThatDiffer_areShortenedAroundWhereTheyDiffer() {
        String padding = "x".repeat(300);
        ContractReport report = checkLogs(SAMPLES, source -> new LokiLike(source, sent -> sent + " # " + padding + " told"));

        assertThat(report.failures()).singleElement().satisfies(failure -> assertThat(failure)
                .startsWith("LogsCapability: the last query queryLogs(query, listener) told its listener, '{service=\"checkout\"} # xxx")
                .contains("...' (328 characters), is not the resolvedQuery of its answer, '{service=\"checkout\"}'")
                .doesNotContain(padding));
        assertThat(ConnectorContract.excerpt("a".repeat(200) + "b" + "a".repeat(200), 200))
                .isEqualTo("'..." + "a".repeat(30) + "b" + "a".repeat(89) + "...' (401 characters)");
    }

    @Test
    void aListenerMethodThatAnswersOtherwiseThanItsTwin_fails() {
        // an override that forgot what the one-argument method does (here, it drops the lines)
        record Forgetful(SourceConfig source) implements Connector, LogsCapability {
            @Override
            public LogResult queryLogs(LogQuery query) {
                return new LogResult(List.of(new LogEntry(LINE_AT, "boom", Map.of())), false, LokiLike.logql(query));
            }

            @Override
            public LogResult queryLogs(LogQuery query, QueryListener listener) {
                listener.sending(LokiLike.logql(query));
                return new LogResult(List.of(), false, LokiLike.logql(query));
            }

            @Override
            public Health health() {
                return new Health(true, "fine", Duration.ZERO);
            }

            @Override
            public void close() {}
        }
        ContractReport report = checkLogs(SAMPLES, Forgetful::new);

        assertThat(report.failures()).containsExactly("LogsCapability: queryLogs(query, listener), which the gateway calls, does not "
                + "answer as queryLogs(query) does: 0 lines instead of 1");
    }

    @Test
    void aNullToldForAQuery_fails() {
        // the gateway ignores it, but it is a bug of the connector's: it meant to tell something
        ContractReport report = checkLogs(SAMPLES, source -> new LokiLike(source, sent -> null));
        assertThat(report.failures()).containsExactly("LogsCapability: queryLogs(query, listener) told its listener a null query: tell "
                + "the text of the query you send, or nothing");
    }

    @Test
    void withoutASampleAggregation_aggregatesAreNotExercised_andThePassedLineSaysHowToExerciseThem() {
        ContractReport report = checkLogs(SAMPLES, LokiLike::new);

        assertThat(report.failures()).isEmpty();
        assertThat(report.passed()).contains("LogAggregatesCapability is implemented (not exercised: SampleQueries.withLogAggregation "
                + "gives it an aggregation your mock answers)");
        assertThat(report.passed()).noneMatch(line -> line.startsWith("LogAggregatesCapability: "));
    }
    /**
     * Metrics with discovery that lists {@code discovered} metrics whatever limit it is given, for the sample service and
     * for {@code otherServices} (none, every service alike, or a failure), as a backend that knows only the sample service.
     */
    private record DiscoveringConnector(SourceConfig source, int discovered, OtherServices otherServices)
            implements Connector, MetricsCapability, MetricDiscoveryCapability {
        DiscoveringConnector(SourceConfig source, int discovered) {
            this(source, discovered, OtherServices.NONE);
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) {
            return new MetricResult(List.of(), "request_rate", "");
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
            if (!service.equals(SAMPLES.service())) {
                switch (otherServices) {
                    case NONE -> {
                        return List.of();
                    }
                    case NOT_FOUND -> throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "no service " + service);
                    case EVERY_METRIC -> { }
                }
            }
            return IntStream.range(0, discovered).mapToObj(i -> new MetricInfo("m" + i, "gauge", "")).toList();
        }

        @Override
        public void close() {}
    }

    private enum OtherServices { NONE, EVERY_METRIC, NOT_FOUND }

    @Test
    void metricDiscoveryForAServiceTheBackendDoesNotKnow_passesWithNoMetrics() {
        ContractReport report = check(new Capabilities(true, false, false, false, false), source -> new DiscoveringConnector(source, 3));

        assertThat(report.failures()).isEmpty();
        assertThat(report.passed()).contains("MetricDiscoveryCapability: no metrics for a service the backend does not know");
    }

    @Test
    void metricDiscoveryThatAnswersEveryMetricForAServiceTheBackendDoesNotKnow_fails() {
        // the gateway reads each name as one the service exports: its hints would offer other services' metrics as this one's
        ContractReport report = check(new Capabilities(true, false, false, false, false),
                source -> new DiscoveringConnector(source, 3, OtherServices.EVERY_METRIC));

        assertThat(report.failures()).singleElement().asString()
                .startsWith("MetricDiscoveryCapability: discoverMetrics(\"omcp-contract-unknown-service\", 20)"
                        + " returned 3 metrics (m0, m1, m2)")
                .contains("return an empty list for a service the backend does not know")
                .contains("if only your mock answers every service alike");
    }

    @Test
    void metricDiscoveryThatThrowsForAServiceTheBackendDoesNotKnow_fails() {
        // a failure fails the source's service listing in that call
        ContractReport report = check(new Capabilities(true, false, false, false, false),
                source -> new DiscoveringConnector(source, 3, OtherServices.NOT_FOUND));

        assertThat(report.failures()).singleElement().asString()
                .startsWith("MetricDiscoveryCapability: discoverMetrics(\"omcp-contract-unknown-service\", 20) threw")
                .contains("no service omcp-contract-unknown-service")
                .contains("return an empty list for a service the backend does not know");
    }

    @Test
    void metricDiscoveryThatReturnsMoreThanItsLimit_fails_whileOneWithinItPasses() {
        Capabilities metrics = new Capabilities(true, false, false, false, false);

        ContractReport tooMany = check(metrics, source -> new DiscoveringConnector(source, 25));
        ContractReport within = check(metrics, source -> new DiscoveringConnector(source, 20));

        assertThat(tooMany.failures()).containsExactly("MetricDiscoveryCapability: returned 25 metrics for a limit of 20; "
                + "stop at the limit discoverMetrics(service, limit) is given");
        assertThat(within.failures()).isEmpty();
        assertThat(within.passed()).contains("MetricDiscoveryCapability: 20 metrics");
    }

    /**
     * A connector whose metricDiscovery (the gateway's call) answers {@code sample} for the sample service and {@code unknown}
     * for any other, while its discoverMetrics keeps the contract: the checks must be of the call the gateway makes.
     */
    private record WarningDiscovery(SourceConfig source, MetricDiscovery sample, MetricDiscovery unknown)
            implements Connector, MetricsCapability, MetricDiscoveryCapability {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) {
            return new MetricResult(List.of(), "request_rate", "");
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) {
            return service.equals(SAMPLES.service()) ? List.of(new MetricInfo("up", "gauge", "")) : List.of();
        }

        @Override
        public MetricDiscovery metricDiscovery(String service, int limit) {
            return service.equals(SAMPLES.service()) ? sample : unknown;
        }

        @Override
        public void close() {}
    }

    private static List<MetricInfo> metricsNamed(int count) {
        return IntStream.range(0, count).mapToObj(i -> new MetricInfo("m" + i, "gauge", "")).toList();
    }

    @Test
    void metricDiscovery_theCallTheGatewayMakes_isHeldToTheContract_whenOverridden() {
        Capabilities metrics = new Capabilities(true, false, false, false, false);
        MetricDiscovery none = new MetricDiscovery(List.of());

        ContractReport tooMany = check(metrics, source -> new WarningDiscovery(source, new MetricDiscovery(metricsNamed(25),
                List.of(" ")), none));
        assertThat(tooMany.failures()).containsExactly("MetricDiscoveryCapability: returned 25 metrics for a limit of 20; "
                + "stop at the limit metricDiscovery(service, limit) is given", "MetricDiscoveryCapability: metricDiscovery returned a "
                + "blank warning: give each warning as one line saying what the list may lack, or return no warning");

        ContractReport everyService = check(metrics, source -> new WarningDiscovery(source, new MetricDiscovery(metricsNamed(3)),
                new MetricDiscovery(metricsNamed(3))));
        assertThat(everyService.failures()).singleElement().asString()
                .startsWith("MetricDiscoveryCapability: metricDiscovery(\"omcp-contract-unknown-service\", 20) returned 3 metrics");

        ContractReport warned = check(metrics, source -> new WarningDiscovery(source, new MetricDiscovery(metricsNamed(3),
                List.of("2 metric names longer than 1024 characters were left out")), none));
        assertThat(warned.failures()).isEmpty();
        assertThat(warned.passed()).contains("MetricDiscoveryCapability: 3 metrics (1 warnings)",
                "MetricDiscoveryCapability: no metrics for a service the backend does not know");
    }

    @Test
    void metricDiscovery_thatReturnsNull_failsAsSuch() {
        ContractReport report = check(new Capabilities(true, false, false, false, false),
                source -> new WarningDiscovery(source, null, new MetricDiscovery(List.of())));

        assertThat(report.failures()).containsExactly("MetricDiscoveryCapability returned null");
    }

    /** A connector answering metrics and logs with points and lines at the given times. */
    private record WindowConnector(SourceConfig source, List<Instant> times) implements Connector, MetricsCapability, LogsCapability {
        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) {
            long[] millis = times.stream().mapToLong(Instant::toEpochMilli).sorted().toArray();
            return new MetricResult(List.of(new Series(Map.of(), millis, new double[millis.length])), "request_rate", "service");
        }

        @Override
        public LogResult queryLogs(LogQuery query) {
            return new LogResult(times.stream().sorted(java.util.Comparator.reverseOrder())
                    .map(at -> new LogEntry(at, "line", Map.of())).toList(), false, "{service=\"checkout\"}");
        }

        @Override
        public void close() {}
    }

    @Test
    void pointsAndLinesOutsideTheAskedWindow_fail_whileOnesAtItsEdgesPass() {
        Capabilities metricsAndLogs = new Capabilities(true, true, false, false, false);
        Instant start = SAMPLES.range().start();
        Instant end = SAMPLES.range().end();

        ContractReport within = check(metricsAndLogs, source -> new WindowConnector(source, List.of(start.minusSeconds(1), end)));
        ContractReport outside = check(metricsAndLogs, source -> new WindowConnector(source, List.of(start.minus(Duration.ofDays(1)),
                end)));

        assertThat(within.failures()).noneMatch(f -> f.contains("outside the asked window"));
        assertThat(outside.failures()).anySatisfy(f -> assertThat(f).startsWith("MetricsCapability: series {} has a point at "
                + start.minus(Duration.ofDays(1)) + ", outside the asked window"))
                .anySatisfy(f -> assertThat(f).startsWith("LogsCapability: a line at " + start.minus(Duration.ofDays(1))
                        + " is outside the asked window"));
    }

    /** A connector answering every capability from memory with the given values. */
    private record Answers(SourceConfig source, List<Instant> lineTimes, List<String> serviceNames, long[] pointTimes, Topology topology,
            int traces)
            implements Connector, MetricsCapability, LogsCapability, ServiceListingCapability, TracesCapability, TopologyCapability {
        static Answers good(SourceConfig source) {
            Instant at = SAMPLES.range().start().plusSeconds(60);
            TopologyNode pod = new TopologyNode("pod/shop/a", "pod", "a", "shop", Map.of());
            TopologyNode node = new TopologyNode("node/n1", "node", "n1", "", Map.of());
            return new Answers(source, List.of(at.plusSeconds(1), at), List.of("cart", "checkout"),
                    new long[] {at.toEpochMilli(), at.plusSeconds(60).toEpochMilli()},
                    new Topology(List.of(pod, node), List.of(new TopologyEdge(pod.id(), node.id(), Relation.RUNS_ON))), 1);
        }

        @Override
        public MetricResult queryMetrics(MetricQuery query) {
            return new MetricResult(List.of(new Series(Map.of("service", "checkout"), pointTimes, new double[pointTimes.length])),
                    "request_rate", "service");
        }

        @Override
        public LogResult queryLogs(LogQuery query) {
            return new LogResult(lineTimes.stream().map(at -> new LogEntry(at, "line", Map.of())).toList(), false, "{}");
        }

        @Override
        public List<ServiceInfo> listServices() {
            return serviceNames.stream().map(name -> new ServiceInfo(name, Map.of())).toList();
        }

        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) {
            return IntStream.range(0, traces).mapToObj(i -> new TraceSummary("abc" + i, "GET /", "checkout", GOOD.start(), 1, 1, false))
                    .toList();
        }

        @Override
        public Topology topology(String namespace) {
            return topology;
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    private static final Capabilities EVERYTHING = new Capabilities(true, true, true, true, true);

    @Test
    void answersThatKeepEveryPromise_pass() {
        assertThat(check(EVERYTHING, Answers::good).failures()).isEmpty();
    }

    @Test
    void answersInTheWrongOrder_fail_sayingHowToOrderThem() {
        Instant at = SAMPLES.range().start().plusSeconds(60);
        ContractReport report = check(EVERYTHING, source -> {
            Answers good = Answers.good(source);
            return new Answers(source, List.of(at, at.plusSeconds(1)), List.of("checkout", "cart"),
                    new long[] {at.plusSeconds(60).toEpochMilli(), at.toEpochMilli()}, good.topology(), 1);
        });

        assertThat(report.failures()).containsExactly(
                "MetricsCapability: series {service=checkout} has a point at " + at + " after one at " + at.plusSeconds(60)
                        + ": give each series' points oldest first",
                "LogsCapability: lines are not newest first (line 2, at " + at.plusSeconds(1) + ", is newer than line 1, at " + at
                        + "): sort them by timestamp, newest first",
                "ServiceListingCapability: services are not sorted by name ('cart' is listed after 'checkout'): sort them by name, "
                        + "as Comparator.comparing(ServiceInfo::name) does");
    }

    @Test
    void answersPastTheirLimitOrWithAnEdgeToNowhere_fail_sayingWhatToDo() {
        ContractReport report = check(EVERYTHING, source -> {
            Answers good = Answers.good(source);
            List<Instant> lines = IntStream.range(0, 11).mapToObj(i -> SAMPLES.range().end().minusSeconds(i)).toList();
            Topology dangling = new Topology(good.topology().nodes().subList(0, 1), good.topology().edges());
            return new Answers(source, lines, good.serviceNames(), good.pointTimes(), dangling, 11);
        });

        assertThat(report.failures()).containsExactly(
                "LogsCapability: returned 11 lines for a limit of 10: stop at the query's limit (LogQuery.limit())",
                "TracesCapability: returned 11 traces for a limit of 10: stop at the query's limit (TraceQuery.limit())",
                "TopologyCapability: edge pod/shop/a RUNS_ON node/n1 names a node the topology does not hold: add a TopologyNode "
                        + "for both ends of every edge, or leave the edge out");
    }
    @Test
    void serviceListing_theCallTheGatewayMakes_isHeldToTheContract_whenOverridden() {
        Capabilities listing = new Capabilities(false, false, true, false, false);
        List<ServiceInfo> unsorted = List.of(new ServiceInfo("web", Map.of()), new ServiceInfo("api", Map.of()));
        ContractReport broken = check(listing, source -> new ListingConnector(source, new ServiceListing(unsorted, List.of(""))));
        assertThat(broken.failures()).anySatisfy(f -> assertThat(f).contains("services are not sorted by name"))
                .anySatisfy(f -> assertThat(f).contains("serviceListing returned a blank warning"));

        ContractReport warned = check(listing, source -> new ListingConnector(source,
                new ServiceListing(List.of(new ServiceInfo("api", Map.of())), List.of("2 targets were left out"))));
        assertThat(warned.failures()).isEmpty();
        assertThat(warned.passed()).contains("ServiceListingCapability: 1 services (1 warnings)");
    }

    @Test
    void searchTraces_theCallTheGatewayMakes_isHeldToTheContract_notOnlyQueryTraces() {
        TraceSummary capitals = new TraceSummary("4BF92F3577B34DA6", "GET /", "checkout", GOOD.start(), 12, 3, false);
        ContractReport broken = check(TRACES, source -> new SearchingConnector(source, new TraceResult(List.of(capitals), List.of(" "))));
        assertThat(broken.failures()).anySatisfy(f -> assertThat(f).contains("trace id '4BF92F3577B34DA6' is not lower-case hex"))
                .anySatisfy(f -> assertThat(f).contains("searchTraces returned a blank warning"));

        ContractReport warned = check(TRACES, source -> new SearchingConnector(source,
                new TraceResult(List.of(GOOD), List.of("1 trace the search found was gone when fetched"))));
        assertThat(warned.failures()).isEmpty();
        assertThat(warned.passed()).contains("TracesCapability: 1 traces (1 warnings)");
    }
}
