package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory metrics source: per (service, metric) a curve sampled on the query's own range and
 * step, as a Prometheus range query would be, identified by the {@code job} label. It can fail or
 * hang on demand and records every query.
 */
final class FakeMetricsBackend implements Connector, MetricsCapability, ServiceListingCapability,
        dev.omcp.sdk.connector.MetricDiscoveryCapability {
    /** Values of a series over time. */
    @FunctionalInterface
    interface Curve {
        double at(long epochMillis);
    }

    private final SourceConfig source;
    private final Map<String, Map<String, List<Labelled>>> curves = new ConcurrentHashMap<>();
    private final Map<String, ConnectorException> failures = new ConcurrentHashMap<>();
    final List<MetricQuery> queries = new CopyOnWriteArrayList<>();
    /** The service of every metric discovery asked, in order ({@code ""} for every service's). */
    final List<String> discoveries = new CopyOnWriteArrayList<>();
    /** How many times its services were listed. */
    final AtomicInteger listings = new AtomicInteger();
    private volatile boolean hang;
    private volatile boolean labelFilters;
    private volatile int maxPoints = Integer.MAX_VALUE;
    private volatile int discoveryCap = Integer.MAX_VALUE;
    private volatile long retainedFrom = Long.MIN_VALUE;
    private volatile ConnectorException failAll;
    private volatile ConnectorException failDiscovery;
    private volatile List<String> warnings = List.of();
    private volatile List<String> listingWarnings = List.of();
    private final Map<String, List<Map<String, String>>> described = new ConcurrentHashMap<>();
    private volatile List<String> discoveryWarnings = List.of();
    private volatile java.util.function.UnaryOperator<Series> reorder = java.util.function.UnaryOperator.identity();

    private record Labelled(Map<String, String> labels, Curve curve) {}

    FakeMetricsBackend(String name) {
        this.source = new SourceConfig(name, "fake-metrics", "https://" + name + ".example.com", "", JsonObject.EMPTY_JSON_OBJECT);
    }

    /** {@code service} has {@code metric} following {@code curve}, as one series without labels. */
    FakeMetricsBackend serve(String service, String metric, Curve curve) {
        return serve(service, metric, Map.of(), curve);
    }

    /** Adds one labelled series of {@code metric} for {@code service}. */
    FakeMetricsBackend serve(String service, String metric, Map<String, String> labels, Curve curve) {
        curves.computeIfAbsent(service, s -> new ConcurrentHashMap<>())
                .computeIfAbsent(metric, m -> new CopyOnWriteArrayList<>()).add(new Labelled(labels, curve));
        return this;
    }

    /** A discovery of every metric returns at most {@code cap} names, however many it is asked for: a plugin's own cap. */
    FakeMetricsBackend discoveringAtMost(int cap) {
        this.discoveryCap = cap;
        return this;
    }

    /** The service is known (its label resolves) but has no series of any metric. */
    FakeMetricsBackend knows(String service) {
        curves.computeIfAbsent(service, s -> new ConcurrentHashMap<>());
        return this;
    }

    /**
     * The service is known and listed once per map of {@code listings}, each with those attributes instead of
     * {@code label=job}: a source that says more about a service (Prometheus' target counts), or that lists one name
     * more than once (Kubernetes: a service of that name in several namespaces); no map lists it once without any.
     */
    @SafeVarargs
    final FakeMetricsBackend describes(String service, Map<String, String>... listings) {
        knows(service);
        described.put(service, List.of(listings));
        return this;
    }

    /** Queries of {@code metric} fail with {@code e}. */
    FakeMetricsBackend failing(String metric, ConnectorException e) {
        failures.put(metric, e);
        return this;
    }

    /** Every query fails with {@code e}. */
    /** Fails every discovery of metrics with {@code e}, while listings and queries still answer. */
    FakeMetricsBackend failingDiscovery(ConnectorException e) {
        this.failDiscovery = e;
        return this;
    }

    FakeMetricsBackend failingAll(ConnectorException e) {
        this.failAll = e;
        return this;
    }

    /** Answers at most {@code points} points a series, widening a finer step, as the Prometheus connector does. */
    FakeMetricsBackend widensBeyond(int points) {
        this.maxPoints = points;
        return this;
    }

    /**
     * Answers only the series carrying every label filter's value, an empty value matching a series without the
     * label, as Prometheus' exact matchers do; without this the filters are only recorded.
     */
    FakeMetricsBackend honouringLabelFilters() {
        this.labelFilters = true;
        return this;
    }

    /** Every query blocks until the caller gives up (the thread is interrupted). */
    FakeMetricsBackend hanging() {
        this.hang = true;
        return this;
    }

    @Override
    public MetricResult queryMetrics(MetricQuery query) throws ConnectorException {
        queries.add(query);
        if (hang) {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
            }
        }
        if (failAll != null) {
            throw failAll;
        }
        if (failures.containsKey(query.metric())) {
            throw failures.get(query.metric());
        }
        Map<String, List<Labelled>> byMetric = curves.get(query.service());
        if (byMetric == null) {
            return new MetricResult(List.of(), "", "");
        }
        String promql = query.metric() + "{job=\"" + query.service() + "\"}";
        List<Series> out = new ArrayList<>();
        for (Labelled l : byMetric.getOrDefault(query.metric(), List.of())) {
            if (labelFilters && !query.labels().entrySet().stream()
                    .allMatch(f -> l.labels().getOrDefault(f.getKey(), "").equals(f.getValue()))) {
                continue;
            }
            out.add(reorder.apply(sample(l.labels(), l.curve(), query, maxPoints)));
        }
        return new MetricResult(out, promql, "job", Optional.empty(), warnings);
    }

    /** Every answer says {@code lines} alongside it, as Prometheus' warnings or a frontend's partial-response warning. */
    FakeMetricsBackend warning(String... lines) {
        this.warnings = List.of(lines);
        return this;
    }

    /** Every listing says {@code lines} alongside it: what it left out (targets it could not read). */
    FakeMetricsBackend listingWarning(String... lines) {
        this.listingWarnings = List.of(lines);
        return this;
    }

    /** Every metric discovery says {@code lines} alongside it: what its list may lack (names too long, a store not asked). */
    FakeMetricsBackend discoveryWarning(String... lines) {
        this.discoveryWarnings = List.of(lines);
        return this;
    }

    /** Every series answered passes through {@code r}: a connector that breaks the SDK's promise of ascending timestamps. */
    FakeMetricsBackend reordering(java.util.function.UnaryOperator<Series> r) {
        this.reorder = r;
        return this;
    }

    /** Holds no samples before {@code from}, as a backend with a short retention. */
    FakeMetricsBackend retainedFrom(java.time.Instant from) {
        retainedFrom = from.toEpochMilli();
        return this;
    }

    private Series sample(Map<String, String> labels, Curve curve, MetricQuery query, int maxPoints) {
        long start = query.range().start().toEpochMilli();
        long end = query.range().end().toEpochMilli();
        long step = Math.max(query.step().toMillis(), (end - start + maxPoints - 1) / maxPoints / 1000 * 1000);
        // aligned to the step, as Prometheus evaluates range queries
        long first = (start + step - 1) / step * step;
        while (first < retainedFrom) {
            first += step;
        }
        int n = Math.max(0, (int) ((end - first) / step) + 1);
        long[] times = new long[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = first + i * step;
            values[i] = curve.at(times[i]);
        }
        return new Series(labels, times, values);
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        listings.incrementAndGet();
        if (failAll != null) {
            throw failAll;
        }
        return curves.keySet().stream().sorted().flatMap(s -> listingsOf(s).stream().map(a -> new ServiceInfo(s, a))).toList();
    }

    /** The attributes of each listing of {@code service}: {@code label=job} unless {@link #describes} gave others. */
    private List<Map<String, String>> listingsOf(String service) {
        List<Map<String, String>> given = described.get(service);
        return given == null ? List.of(Map.of("label", "job")) : given.isEmpty() ? List.of(Map.of()) : given;
    }

    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        return new ServiceListing(listServices(), listingWarnings);
    }

    /** The metric names served for {@code service} (every service's when empty), as Prometheus' label values list them. */
    @Override
    public List<dev.omcp.sdk.query.MetricInfo> discoverMetrics(String service, int limit) throws ConnectorException {
        discoveries.add(service);
        if (failAll != null) {
            throw failAll;
        }
        if (failDiscovery != null) {
            throw failDiscovery;
        }
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        curves.forEach((s, metrics) -> {
            if (service.isEmpty() || s.equals(service)) {
                names.addAll(metrics.keySet());
            }
        });
        int most = service.isEmpty() ? Math.min(limit, discoveryCap) : limit;
        return names.stream().limit(most).map(n -> new dev.omcp.sdk.query.MetricInfo(n, "unknown", "")).toList();
    }

    @Override
    public dev.omcp.sdk.query.MetricDiscovery metricDiscovery(String service, int limit) throws ConnectorException {
        return new dev.omcp.sdk.query.MetricDiscovery(discoverMetrics(service, limit), discoveryWarnings);
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        return new Health(true, "fake metrics", Duration.ofMillis(1));
    }

    @Override
    public void close() {}

    /** A level with deterministic noise of relative size {@code noise}, so the baseline has a spread. */
    static Curve noisy(double level, double noise) {
        return t -> level * (1 + noise * jitter(t));
    }

    /** {@code before} until {@code at}, then {@code after}, each with relative noise. */
    static Curve stepAt(long at, double before, double after, double noise) {
        return t -> (t < at ? before : after) * (1 + noise * jitter(t));
    }

    /** A deterministic value in [-1, 1] for a timestamp. */
    static double jitter(long t) {
        long h = t / 1000 * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return ((h & 0xFFFF) / 32767.5) - 1;
    }
}
