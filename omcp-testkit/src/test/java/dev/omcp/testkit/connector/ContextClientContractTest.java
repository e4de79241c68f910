package dev.omcp.testkit.connector;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * spec 2.3: the contract catches a connector that reaches its backend with an HTTP client of its
 * own, which skips the egress guard, the source's TLS and authentication, the no-redirect rule and
 * the answer budget; connectors that send through the context's client, or send nothing, pass.
 */
class ContextClientContractTest {
    private static final SampleQueries SAMPLES = SampleQueries.of("checkout",
            TimeRange.ending(Instant.parse("2026-01-15T11:00:00Z"), Duration.ofHours(1)));
    private static final TraceSummary GOOD = new TraceSummary("4bf92f3577b34da6", "GET /", "checkout",
            Instant.parse("2026-01-15T10:30:00Z"), 12, 3, false);
    private static final Capabilities TRACES = new Capabilities(false, false, false, true, false);
    private static final Capabilities SERVICES = new Capabilities(false, false, true, false, false);
    private static final String FIX = "such a client skips the gateway's egress guard (SSRF protection), the source's TLS and "
            + "authentication settings, the no-redirect rule and the answer memory budget: send every backend request with "
            + "context.httpClient(), or with dev.omcp.sdk.http.BackendApi, which uses it, and build no HttpClient, "
            + "URLConnection or other HTTP client of your own";

    /** The author's mock: answers every request with an empty 200, and counts them. */
    private HttpServer mock;
    private final AtomicInteger mockRequests = new AtomicInteger();
    private SourceConfig source;

    @BeforeEach
    void startMock() throws IOException {
        mock = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        mock.createContext("/", exchange -> {
            try (exchange) {
                mockRequests.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
            }
        });
        mock.start();
        source = new SourceConfig("t", "t", "http://127.0.0.1:" + mock.getAddress().getPort() + "/api", "", JsonValue.EMPTY_JSON_OBJECT);
    }

    @AfterEach
    void stopMock() {
        mock.stop(0);
    }

    private static ConnectorManifest manifest(Capabilities capabilities) {
        return new ConnectorManifest(1, "t", "t", "1.0.0", "test", List.of("traces"), capabilities, JsonValue.EMPTY_JSON_OBJECT,
                Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }

    private ContractReport check(Capabilities declared, BiFunction<SourceConfig, ConnectorContext, Connector> connector) {
        ConnectorFactory factory = new ConnectorFactory() {
            @Override
            public ConnectorManifest manifest() {
                return ContextClientContractTest.manifest(declared);
            }

            @Override
            public CompletionStage<Connector> create(SourceConfig s, ConnectorContext context) {
                return CompletableFuture.completedFuture(connector.apply(s, context));
            }
        };
        return ConnectorContract.check(factory, manifest(declared), source, TestConnectorContext.defaults(), SAMPLES);
    }

    /** One GET of the source URL with {@code client}; the answer's status does not matter. */
    private static void get(HttpClient client, SourceConfig source) throws ConnectorException {
        try {
            client.send(HttpRequest.newBuilder(URI.create(source.url())).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "backend unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
        }
    }

    private interface UpTraces extends Connector, TracesCapability {
        @Override
        default Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        default void close() {}
    }

    /** The mistake: an HttpClient of its own, one GET of the source URL per query. */
    private record OwnClientTraces(SourceConfig source, HttpClient own) implements UpTraces {
        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
            get(own, source);
            return List.of(GOOD);
        }
    }

    /** The same connector done right: the context's client. */
    private record ContextClientTraces(SourceConfig source, ConnectorContext context) implements UpTraces {
        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
            get(context.httpClient(), source);
            return List.of(GOOD);
        }
    }

    @Test
    void aConnectorWithAnHttpClientOfItsOwn_fails_sayingToUseTheContextsClient() {
        ContractReport report = check(TRACES, (s, context) -> new OwnClientTraces(s, HttpClient.newHttpClient()));

        assertThat(mockRequests).as("the mock answered the ordinary checks, which pass").hasValueGreaterThan(0);
        assertThat(report.passed()).contains("TracesCapability: 1 traces");
        assertThat(report.failures()).containsExactly("queryTraces(query) sent 1 backend request with an HTTP client of its own "
                + "(the backend received 1, context.httpClient() sent 0): " + FIX);
    }

    @Test
    void aConnectorThatSendsEveryRequestThroughTheContextsClient_passes() {
        ContractReport report = check(TRACES, ContextClientTraces::new);

        assertThat(report.failures()).isEmpty();
        assertThat(report.notes()).isEmpty();
        assertThat(report.passed()).contains("every backend request went through context.httpClient() (1 of 1)");
    }

    @Test
    void aConnectorThatAnswersFromMemory_passes_withNothingToCount() {
        ContractReport report = check(TRACES, (s, context) -> new UpTraces() {
            @Override
            public SourceConfig source() {
                return s;
            }

            @Override
            public List<TraceSummary> queryTraces(TraceQuery query) {
                return List.of(GOOD);
            }
        });

        assertThat(report.failures()).isEmpty();
        assertThat(report.notes()).isEmpty();
        assertThat(report.passed()).contains("sent no backend request when exercised against a loopback backend, so none "
                + "bypassed context.httpClient()");
    }

    /**
     * Metrics through the context's client, but an overridden metricDiscovery (the gateway's call) with a client of its own,
     * while its discoverMetrics sends nothing.
     */
    private record OwnClientDiscovery(SourceConfig source, ConnectorContext context, HttpClient own)
            implements Connector, MetricsCapability, MetricDiscoveryCapability {
        @Override
        public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
            get(context.httpClient(), source);
            return new MetricResult(List.of(), "up", "");
        }

        @Override
        public List<MetricInfo> discoverMetrics(String service, int limit) {
            return List.of();
        }

        @Override
        public MetricDiscovery metricDiscovery(String service, int limit) throws ConnectorException {
            get(own, source);
            return new MetricDiscovery(List.of());
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    @Test
    void anOverriddenMetricDiscovery_withAnHttpClientOfItsOwn_fails_namingIt() {
        ContractReport report = check(new Capabilities(true, false, false, false, false),
                (s, context) -> new OwnClientDiscovery(s, context, HttpClient.newHttpClient()));

        assertThat(report.failures()).anySatisfy(f -> assertThat(f).startsWith("metricDiscovery(service, limit) sent ")
                .contains("with an HTTP client of its own"));
    }

    /** Services read with a URLConnection: another client of its own. */
    private record UrlConnectionServices(SourceConfig source) implements Connector, ServiceListingCapability {
        @Override
        public List<ServiceInfo> listServices() throws ConnectorException {
            try {
                HttpURLConnection connection = (HttpURLConnection) URI.create(source.url()).toURL().openConnection();
                connection.setConnectTimeout(2_000);
                connection.setReadTimeout(5_000);
                connection.getResponseCode();
                connection.disconnect();
                return List.of();
            } catch (IOException e) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "backend unreachable");
            }
        }

        @Override
        public Health health() {
            return new Health(true, "fine", Duration.ZERO);
        }

        @Override
        public void close() {}
    }

    @Test
    void aConnectorThatReadsItsBackendWithAUrlConnection_fails() {
        ContractReport report = check(SERVICES, (s, context) -> new UrlConnectionServices(s));

        assertThat(report.failures()).containsExactly("listServices() sent 1 backend request with an HTTP client of its own "
                + "(the backend received 1, context.httpClient() sent 0): " + FIX);
    }

    /** Queries through the context's client, but checks its backend with a client of its own when created and in health(). */
    private record ProbingTraces(SourceConfig source, ConnectorContext context, HttpClient own) implements TracesCapability, Connector {
        ProbingTraces {
            try {
                get(own, source);
            } catch (ConnectorException e) {
                // a probe that fails is not fatal here: the queries will say what is wrong
            }
        }

        @Override
        public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
            get(context.httpClient(), source);
            return List.of(GOOD);
        }

        @Override
        public Health health() {
            try {
                get(own, source);
                return new Health(true, "fine", Duration.ZERO);
            } catch (ConnectorException e) {
                return new Health(false, e.getMessage(), Duration.ZERO);
            }
        }

        @Override
        public void close() {}
    }

    @Test
    void aConnectorThatUsesTheContextsClientOnlyForSomeRequests_fails_namingTheCallsThatDoNot() {
        ContractReport report = check(TRACES, (s, context) -> new ProbingTraces(s, context, HttpClient.newHttpClient()));

        assertThat(report.failures()).containsExactly("create(), health() sent 2 backend requests with an HTTP client of its own "
                + "(the backend received 3, context.httpClient() sent 1): " + FIX);
    }
}
