package dev.omcp.testkit.connector;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricDiscoveryCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceSummary;
import java.io.IOException;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * Checks a connector against the SDK contract (spec 2.3): the factory creates a connector for the
 * source; {@code health()} answers; every capability the manifest declares is implemented and
 * answers its sample query without throwing, with values that keep the SDK's promises; a capability
 * that is implemented but not declared is not relied on (the gateway routes by declared and
 * implemented capability), so it is only noted; {@code close()} returns.
 */
public final class ConnectorContract {
    /** How long the factory and each call may take against a mock. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** How long a call of a connector that says {@link Connector#interruptible()} may take to end once interrupted. */
    static final Duration INTERRUPT_GRACE = Duration.ofSeconds(2);
    /** How long such a call waits on a backend that never answers before it is interrupted. */
    private static final Duration BEFORE_INTERRUPT = Duration.ofMillis(300);
    /** How long the factory may take to create a connector for the backend that never answers. */
    private static final Duration SILENT_CREATE_TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern HEX = Pattern.compile("[0-9a-f]+");

    private ConnectorContract() {}

    /** A capability: its manifest flag, its SDK interface and how to exercise it. */
    private record Capability(String flag, boolean declared, Class<?> type, Exercise exercise) {}

    @FunctionalInterface
    private interface Exercise {
        /** Runs the sample and returns the broken promises, or a short description when it passed. */
        Outcome run(Connector connector, SampleQueries samples) throws ConnectorException;
    }

    private record Outcome(List<String> broken, String summary) {}

    public static ContractReport check(
            ConnectorFactory factory, ConnectorManifest manifest, SourceConfig source, ConnectorContext context, SampleQueries samples) {
        List<String> passed = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Connector connector;
        try {
            connector = factory.create(source, context).toCompletableFuture().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new ContractReport(passed, List.of("create() did not complete within " + CALL_TIMEOUT.toSeconds() + " s"), notes);
        } catch (ExecutionException e) {
            return new ContractReport(passed, List.of("create() failed: " + describe(e.getCause())), notes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ContractReport(passed, List.of("interrupted while create() ran"), notes);
        } catch (RuntimeException e) {
            return new ContractReport(passed, List.of("create() threw instead of returning a failed stage: " + describe(e)), notes);
        }
        if (connector == null) {
            return new ContractReport(passed, List.of("create() completed with null"), notes);
        }
        passed.add("create() completed with a connector");
        try {
            if (!source.equals(connector.source())) {
                failures.add("source() does not return the source the connector was created for");
            }
            Health health = call("health()", connector::health, failures);
            if (health != null) {
                if (health.up()) {
                    passed.add("health() is up: " + health.message());
                } else {
                    failures.add("health() says down against the mock: " + health.message());
                }
            }
            for (Capability capability : capabilities(manifest.capabilities())) {
                boolean implemented = capability.type().isInstance(connector);
                String name = capability.type().getSimpleName();
                if (capability.declared() && !implemented) {
                    failures.add("the manifest declares capabilities." + capability.flag() + " but the connector does not implement " + name);
                    continue;
                }
                if (!capability.declared()) {
                    if (implemented) {
                        notes.add("the connector implements " + name + " but the manifest does not declare capabilities." + capability.flag()
                                + "; the gateway will not route to it");
                    }
                    continue;
                }
                Outcome outcome = call(name, () -> capability.exercise().run(connector, samples), failures);
                if (outcome != null) {
                    if (outcome.broken().isEmpty()) {
                        passed.add(name + ": " + outcome.summary());
                    } else {
                        outcome.broken().forEach(problem -> failures.add(name + ": " + problem));
                    }
                }
            }
            extras(connector, manifest.capabilities(), samples, passed, failures);
            if (connector.interruptible()) {
                // while this connector is open: a connector may close the context's client when it closes
                interruptibility(factory, manifest.capabilities(), source, context, samples, passed, failures, notes);
            }
        } finally {
            try {
                connector.close();
                passed.add("close() returned");
            } catch (RuntimeException e) {
                failures.add("close() threw: " + describe(e));
            }
        }
        return new ContractReport(passed, failures, notes);
    }

    /**
     * {@link Connector#interruptible()} is a promise the gateway keeps a tool call's deadline with (it
     * interrupts the call instead of leaving it behind on a thread of its own), so it is checked: a
     * second connector is created for a backend that accepts connections and never answers, and each
     * declared capability's sample call, interrupted after a moment, must end within
     * {@link #INTERRUPT_GRACE}.
     */
    private static void interruptibility(ConnectorFactory factory, Capabilities declared, SourceConfig source, ConnectorContext context,
            SampleQueries samples, List<String> passed, List<String> failures, List<String> notes) {
        try (SilentBackend silent = SilentBackend.start()) {
            SourceConfig silentSource = new SourceConfig(source.name(), source.type(), silent.urlFor(source.url()), source.tenant(),
                    source.settings());
            CompletableFuture<Connector> created = factory.create(silentSource, context).toCompletableFuture();
            Connector connector;
            try {
                connector = created.get(SILENT_CREATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                created.cancel(true);
                notes.add("interruptible() is true but was not checked: create() for a backend that never answers "
                        + (e instanceof TimeoutException ? "did not complete within " + SILENT_CREATE_TIMEOUT.toSeconds() + " s"
                                : "failed: " + describe(e.getCause())));
                return;
            }
            try {
                for (Capability capability : capabilities(declared)) {
                    if (capability.declared() && capability.type().isInstance(connector)) {
                        interruptOnce(capability, connector, samples, passed, failures);
                    }
                }
            } finally {
                connector.close();
            }
        } catch (IOException | URISyntaxException e) {
            notes.add("interruptible() is true but was not checked: " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("interrupted while interruptible() was checked");
        }
    }

    private static void interruptOnce(Capability capability, Connector connector, SampleQueries samples, List<String> passed,
            List<String> failures) throws InterruptedException {
        String name = capability.type().getSimpleName();
        AtomicReference<String> ending = new AtomicReference<>("it returned");
        Thread worker = Thread.ofVirtual().name("contract-interrupt-" + name).start(() -> {
            try {
                capability.exercise().run(connector, samples);
            } catch (ConnectorException | RuntimeException e) {
                // any ending keeps the promise; how it ended only explains a call that did not wait
                ending.set("it threw " + describe(e));
            }
        });
        if (worker.join(BEFORE_INTERRUPT)) {
            passed.add(name + " ended without waiting for a backend that never answers (" + ending.get() + ")");
            return;
        }
        worker.interrupt();
        if (worker.join(INTERRUPT_GRACE)) {
            passed.add(name + " ends when interrupted, as interruptible() promises");
        } else {
            failures.add("interruptible() is true, but " + name + " did not end within " + INTERRUPT_GRACE.toSeconds()
                    + " s of an interrupt while its backend did not answer: the gateway would wait for it past the tool's timeout");
        }
    }

    private static List<Capability> capabilities(Capabilities declared) {
        return List.of(
                new Capability("queryMetrics", declared.queryMetrics(), MetricsCapability.class,
                        (c, s) -> metrics(((MetricsCapability) c).queryMetrics(s.metrics()))),
                new Capability("queryLogs", declared.queryLogs(), LogsCapability.class,
                        (c, s) -> logs(((LogsCapability) c).queryLogs(s.logs()), s.logs().limit())),
                new Capability("listServices", declared.listServices(), ServiceListingCapability.class,
                        (c, s) -> services(((ServiceListingCapability) c).listServices())),
                new Capability("queryTraces", declared.queryTraces(), TracesCapability.class,
                        (c, s) -> traces(((TracesCapability) c).queryTraces(s.traces()), s.traces().limit())),
                new Capability("topology", declared.topology(), TopologyCapability.class,
                        (c, s) -> topology(((TopologyCapability) c).topology(s.namespace()))));
    }

    /** Capabilities without a manifest flag ride on their parent's: discovery on metrics, aggregates on logs. */
    private static void extras(Connector connector, Capabilities declared, SampleQueries samples, List<String> passed, List<String> failures) {
        if (declared.queryMetrics() && connector instanceof MetricDiscoveryCapability discovery) {
            var metrics = call("MetricDiscoveryCapability", () -> discovery.discoverMetrics(samples.service(), 20), failures);
            if (metrics != null) {
                passed.add("MetricDiscoveryCapability: " + metrics.size() + " metrics");
            }
        }
        if (declared.queryLogs() && connector instanceof LogAggregatesCapability) {
            passed.add("LogAggregatesCapability is implemented (not exercised: it needs a backend-specific aggregation)");
        }
    }

    private static Outcome metrics(MetricResult result) {
        List<String> broken = new ArrayList<>();
        if (result == null) {
            return new Outcome(List.of("returned null"), "");
        }
        result.series().forEach(series -> {
            long[] times = series.epochMillis();
            for (int i = 1; i < times.length; i++) {
                if (times[i] < times[i - 1]) {
                    broken.add("series " + series.labels() + " has timestamps out of order");
                    break;
                }
            }
        });
        return new Outcome(broken, result.series().size() + " series");
    }

    private static Outcome logs(LogResult result, int limit) {
        if (result == null) {
            return new Outcome(List.of("returned null"), "");
        }
        List<String> broken = new ArrayList<>();
        if (result.entries().size() > limit) {
            broken.add("returned " + result.entries().size() + " lines for a limit of " + limit);
        }
        List<LogEntry> entries = result.entries();
        for (int i = 1; i < entries.size(); i++) {
            if (entries.get(i).timestamp().isAfter(entries.get(i - 1).timestamp())) {
                broken.add("lines are not newest first");
                break;
            }
        }
        return new Outcome(broken, entries.size() + " lines");
    }

    private static Outcome services(List<ServiceInfo> services) {
        if (services == null) {
            return new Outcome(List.of("returned null"), "");
        }
        List<String> broken = new ArrayList<>();
        for (int i = 1; i < services.size(); i++) {
            if (services.get(i).name().compareTo(services.get(i - 1).name()) < 0) {
                broken.add("services are not sorted by name");
                break;
            }
        }
        return new Outcome(broken, services.size() + " services");
    }

    private static Outcome traces(List<TraceSummary> traces, int limit) {
        if (traces == null) {
            return new Outcome(List.of("returned null"), "");
        }
        List<String> broken = new ArrayList<>();
        if (traces.size() > limit) {
            broken.add("returned " + traces.size() + " traces for a limit of " + limit);
        }
        for (TraceSummary trace : traces) {
            if (!HEX.matcher(trace.traceId()).matches()) {
                broken.add("trace id '" + trace.traceId() + "' is not lower-case hex");
            }
            if (trace.durationMs() < 0 || Double.isNaN(trace.durationMs())) {
                broken.add("trace " + trace.traceId() + " has a negative duration");
            }
            if (trace.spanCount() < 1) {
                broken.add("trace " + trace.traceId() + " has no spans");
            }
        }
        return new Outcome(broken, traces.size() + " traces");
    }

    private static Outcome topology(Topology topology) {
        if (topology == null) {
            return new Outcome(List.of("returned null"), "");
        }
        Set<String> ids = new HashSet<>();
        topology.nodes().stream().map(TopologyNode::id).forEach(ids::add);
        List<String> broken = new ArrayList<>();
        for (TopologyEdge edge : topology.edges()) {
            if (!ids.contains(edge.from()) || !ids.contains(edge.to())) {
                broken.add("edge " + edge.from() + " " + edge.relation() + " " + edge.to() + " names a node the topology does not hold");
            }
        }
        return new Outcome(broken, topology.nodes().size() + " nodes, " + topology.edges().size() + " edges");
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws ConnectorException;
    }

    /** Runs one call on a virtual thread with the timeout; a throw or timeout is a failure. */
    private static <T> T call(String what, Call<T> call, List<String> failures) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread worker = Thread.ofVirtual().name("contract-" + what).start(() -> {
            try {
                result.complete(call.run());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        try {
            T value = result.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (value == null) {
                failures.add(what + " returned null");
            }
            return value;
        } catch (TimeoutException e) {
            worker.interrupt();
            failures.add(what + " did not answer within " + CALL_TIMEOUT.toSeconds() + " s");
        } catch (ExecutionException e) {
            failures.add(what + " threw on the sample query: " + describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add("interrupted while " + what + " ran");
        }
        return null;
    }

    private static String describe(Throwable e) {
        if (e instanceof ConnectorException failure) {
            return "ConnectorException(" + failure.kind() + "): " + failure.getMessage();
        }
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
