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
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricDiscovery;
import dev.omcp.sdk.query.MetricInfo;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import java.io.IOException;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Checks a connector against the SDK contract (spec 2.3): the factory creates a connector for the
 * source; {@code health()} answers; every capability the manifest declares is implemented and
 * answers its sample query without throwing, with values that keep the SDK's promises; a capability
 * that is implemented but not declared is not relied on (the gateway routes by declared and
 * implemented capability), so it is only noted; {@code close()} returns.
 *
 * <p>The log methods that take a {@link QueryListener} are the ones the gateway calls, so they are
 * exercised too: each must answer as its one-argument twin does, and the last query it tells its
 * listener, when it tells any, must be the one its answer carries ({@link LogResult#resolvedQuery()},
 * {@link MetricResult#resolvedSeries()}). Telling is optional: a connector that tells nothing
 * passes, with a note.
 *
 * <p>Metric discovery beside a declared {@code queryMetrics} answers at most its limit for the sample
 * service, and no metrics, without failing, for a service the backend does not know
 * ({@link MetricDiscoveryCapability#discoverMetrics}); a connector that overrides
 * {@link MetricDiscoveryCapability#metricDiscovery}, the call the gateway makes, is held to that there, with no blank
 * warning.
 *
 * <p>Every request that reaches the backend must have gone through the context's client
 * ({@link ContextClientCheck}). Each failure says what to change.
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
    /** The limit the sample {@code discoverMetrics} call is given. */
    private static final int DISCOVERY_LIMIT = 20;
    /** A service no backend has, which {@code discoverMetrics} must answer with no metrics. */
    static final String UNKNOWN_SERVICE = "omcp-contract-unknown-service";
    /** How far outside the asked window a log line may be: backends round a window's ends to the second. */
    private static final Duration LOG_WINDOW_SLACK = Duration.ofSeconds(1);
    /** How long a quoted query may be in a message: a connector's query may be any length. */
    static final int EXCERPT_CHARS = 120;
    private static final String RETURNED_NULL = "returned null: return an empty answer when there is nothing, or throw a "
            + "ConnectorException when the call failed";

    private ConnectorContract() {}

    /** A capability: its manifest flag, its SDK interface and how to exercise it. */
    private record Capability(String flag, boolean declared, Class<?> type, Exercise exercise) {}

    @FunctionalInterface
    private interface Exercise {
        /** Runs the sample and returns the broken promises, or a short description when it passed. */
        Outcome run(Connector connector, SampleQueries samples) throws ConnectorException;
    }

    /** {@code answer}: what the sample call returned, for a check that compares it with another call's. */
    private record Outcome(List<String> broken, String summary, Object answer) {
        Outcome(List<String> broken, String summary) {
            this(broken, summary, null);
        }
    }

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
            return new ContractReport(passed, List.of("create() threw instead of returning a failed stage: " + describe(e)
                    + ": return CompletableFuture.failedFuture(new ConnectorException(kind, message)) instead"), notes);
        }
        if (connector == null) {
            return new ContractReport(passed, List.of("create() completed with null: complete it with the connector, or fail it with a "
                    + "ConnectorException that says what is wrong"), notes);
        }
        passed.add("create() completed with a connector");
        try {
            if (!source.equals(connector.source())) {
                failures.add("source() does not return the source the connector was created for: return the SourceConfig that create() was "
                        + "given");
            }
            Health health = call("health()", connector::health, failures);
            if (health != null) {
                if (health.up()) {
                    passed.add("health() is up: " + health.message());
                } else {
                    failures.add("health() says down against the mock: " + health.message()
                            + ": make the mock answer what health() asks, or make health() read its answer as up");
                }
            }
            for (Capability capability : capabilities(manifest.capabilities())) {
                boolean implemented = capability.type().isInstance(connector);
                String name = capability.type().getSimpleName();
                if (capability.declared() && !implemented) {
                    failures.add("the manifest declares capabilities." + capability.flag() + " but the connector does not implement " + name
                            + ": implement it, or set capabilities." + capability.flag() + " to false in the manifest");
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
                    if (connector instanceof LogsCapability logs && capability.type() == LogsCapability.class
                            && outcome.answer() instanceof LogResult answered) {
                        new Reporting<LogResult>(name, "queryLogs", "query", "resolvedQuery", LogResult::resolvedQuery,
                                ConnectorContract::logsDiffer)
                                .check(answered, listener -> logs.queryLogs(samples.logs(), listener), passed, failures, notes);
                    }
                }
            }
            extras(connector, manifest.capabilities(), samples, passed, failures, notes);
            // while this connector is open, as for interruptibility below
            ContextClientCheck.run(factory, source, context, created -> calls(created, manifest.capabilities(), samples), CALL_TIMEOUT,
                    passed, failures, notes);
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
     * {@link #INTERRUPT_GRACE}: the logs search through {@code queryLogs(query, listener)}, the method
     * the gateway calls, the sample aggregation, when there is one, through
     * {@code aggregateLogs(aggregation, listener)}, and metric discovery beside a declared
     * {@code queryMetrics}.
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
                        // the logs method the gateway calls is the one with a listener
                        Call<?> call = connector instanceof LogsCapability logs && capability.type() == LogsCapability.class
                                ? () -> logs.queryLogs(samples.logs(), QueryListener.NONE)
                                : () -> capability.exercise().run(connector, samples);
                        interruptOnce(capability.type().getSimpleName(), call, passed, failures);
                    }
                }
                // discovery rides on queryMetrics: query_metrics' name suggestions call it on the tool call's thread
                if (declared.queryMetrics() && connector instanceof MetricDiscoveryCapability discovery) {
                    interruptOnce("MetricDiscoveryCapability", () -> discovered(discovery, samples.service()), passed, failures);
                }
                // aggregates ride on queryLogs and the gateway interrupts them the same way
                if (declared.queryLogs() && connector instanceof LogAggregatesCapability aggregates && samples.logAggregation().isPresent()) {
                    LogAggregation aggregation = samples.logAggregation().get();
                    interruptOnce("LogAggregatesCapability", () -> aggregates.aggregateLogs(aggregation, QueryListener.NONE), passed, failures);
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

    private static void interruptOnce(String name, Call<?> call, List<String> passed, List<String> failures) throws InterruptedException {
        AtomicReference<String> ending = new AtomicReference<>("it returned");
        Thread worker = Thread.ofVirtual().name("contract-interrupt-" + name).start(() -> {
            try {
                call.run();
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

    /**
     * Every call the checks above make of a connector, named as the author knows the methods: for
     * the check that counts the requests they send ({@link ContextClientCheck}).
     */
    private static List<ContextClientCheck.NamedCall> calls(Connector connector, Capabilities declared, SampleQueries samples) {
        List<ContextClientCheck.NamedCall> calls = new ArrayList<>();
        calls.add(new ContextClientCheck.NamedCall("health()", connector::health));
        if (declared.queryMetrics() && connector instanceof MetricsCapability metrics) {
            calls.add(new ContextClientCheck.NamedCall("queryMetrics(query)", () -> metrics.queryMetrics(samples.metrics())));
            if (connector instanceof MetricDiscoveryCapability discovery) {
                calls.add(new ContextClientCheck.NamedCall("discoverMetrics(service, limit)",
                        () -> discovery.discoverMetrics(samples.service(), DISCOVERY_LIMIT)));
                if (overridesMetricDiscovery(discovery)) {
                    calls.add(new ContextClientCheck.NamedCall("metricDiscovery(service, limit)",
                            () -> discovery.metricDiscovery(samples.service(), DISCOVERY_LIMIT)));
                }
            }
        }
        if (declared.queryLogs() && connector instanceof LogsCapability logs) {
            calls.add(new ContextClientCheck.NamedCall("queryLogs(query)", () -> logs.queryLogs(samples.logs())));
            calls.add(new ContextClientCheck.NamedCall("queryLogs(query, listener)",
                    () -> logs.queryLogs(samples.logs(), QueryListener.NONE)));
            if (connector instanceof LogAggregatesCapability aggregates && samples.logAggregation().isPresent()) {
                LogAggregation aggregation = samples.logAggregation().get();
                calls.add(new ContextClientCheck.NamedCall("aggregateLogs(aggregation)", () -> aggregates.aggregateLogs(aggregation)));
                calls.add(new ContextClientCheck.NamedCall("aggregateLogs(aggregation, listener)",
                        () -> aggregates.aggregateLogs(aggregation, QueryListener.NONE)));
            }
        }
        if (declared.listServices() && connector instanceof ServiceListingCapability services) {
            calls.add(new ContextClientCheck.NamedCall("listServices()", services::listServices));
            if (overridesServiceListing(services)) {
                calls.add(new ContextClientCheck.NamedCall("serviceListing()", services::serviceListing));
            }
        }
        if (declared.queryTraces() && connector instanceof TracesCapability traces) {
            calls.add(new ContextClientCheck.NamedCall("queryTraces(query)", () -> traces.queryTraces(samples.traces())));
            if (overridesSearchTraces(traces)) {
                calls.add(new ContextClientCheck.NamedCall("searchTraces(query)", () -> traces.searchTraces(samples.traces())));
            }
        }
        if (declared.topology() && connector instanceof TopologyCapability topology) {
            calls.add(new ContextClientCheck.NamedCall("topology(namespace)", () -> topology.topology(samples.namespace())));
        }
        return calls;
    }

    private static List<Capability> capabilities(Capabilities declared) {
        return List.of(
                new Capability("queryMetrics", declared.queryMetrics(), MetricsCapability.class,
                        (c, s) -> metrics(((MetricsCapability) c).queryMetrics(s.metrics()), s.metrics().range(), s.metrics().step())),
                new Capability("queryLogs", declared.queryLogs(), LogsCapability.class,
                        (c, s) -> logs(((LogsCapability) c).queryLogs(s.logs()), s.logs().limit(), s.logs().range())),
                new Capability("listServices", declared.listServices(), ServiceListingCapability.class,
                        (c, s) -> services((ServiceListingCapability) c)),
                new Capability("queryTraces", declared.queryTraces(), TracesCapability.class,
                        (c, s) -> traces((TracesCapability) c, s.traces())),
                new Capability("topology", declared.topology(), TopologyCapability.class,
                        (c, s) -> topology(((TopologyCapability) c).topology(s.namespace()))));
    }

    /** Capabilities without a manifest flag ride on their parent's: discovery on metrics, aggregates on logs. */
    private static void extras(Connector connector, Capabilities declared, SampleQueries samples, List<String> passed, List<String> failures,
            List<String> notes) {
        if (declared.queryMetrics() && connector instanceof MetricDiscoveryCapability discovery) {
            String method = discoveryMethod(discovery);
            var answer = call("MetricDiscoveryCapability", () -> discovered(discovery, samples.service()), failures);
            if (answer != null) {
                List<String> broken = new ArrayList<>();
                // the gateway asks for what it can show; the SDK promises at most that many
                if (answer.metrics().size() > DISCOVERY_LIMIT) {
                    broken.add("MetricDiscoveryCapability: returned " + answer.metrics().size() + " metrics for a limit of "
                            + DISCOVERY_LIMIT + "; stop at the limit " + method + "(service, limit) is given");
                }
                if (answer.warnings().stream().anyMatch(String::isBlank)) {
                    broken.add("MetricDiscoveryCapability: metricDiscovery returned a blank warning: give each warning as one line "
                            + "saying what the list may lack, or return no warning");
                }
                if (broken.isEmpty()) {
                    String warned = answer.warnings().isEmpty() ? "" : " (" + answer.warnings().size() + " warnings)";
                    passed.add("MetricDiscoveryCapability: " + answer.metrics().size() + " metrics" + warned);
                    unknownServiceDiscovery(discovery, passed, failures);
                } else {
                    failures.addAll(broken);
                }
            }
        }
        if (declared.queryLogs() && connector instanceof LogAggregatesCapability aggregates) {
            if (samples.logAggregation().isEmpty()) {
                passed.add("LogAggregatesCapability is implemented (not exercised: SampleQueries.withLogAggregation gives it an "
                        + "aggregation your mock answers)");
                return;
            }
            LogAggregation aggregation = samples.logAggregation().get();
            String name = "LogAggregatesCapability";
            Outcome outcome = call(name, () -> metrics(aggregates.aggregateLogs(aggregation)), failures);
            if (outcome != null) {
                if (outcome.broken().isEmpty()) {
                    passed.add(name + ": " + outcome.summary());
                } else {
                    outcome.broken().forEach(problem -> failures.add(name + ": " + problem));
                }
                if (outcome.answer() instanceof MetricResult answered) {
                    new Reporting<MetricResult>(name, "aggregateLogs", "aggregation", "resolvedSeries", MetricResult::resolvedSeries,
                            ConnectorContract::aggregatesDiffer)
                            .check(answered, listener -> aggregates.aggregateLogs(aggregation, listener), passed, failures, notes);
                }
            }
        }
    }

    /**
     * The check of a method that tells a {@link QueryListener} against its one-argument twin. The
     * gateway shows the last query told for a call that failed or ran out of time, in place of the
     * one its answer would have carried: on a call that answers, the two must be the same text, or
     * what an agent is shown for a failure is not what ran.
     *
     * @param method the method's name, for the messages
     * @param argument the name of its first argument, for the messages
     * @param resolvedName the answer's member that holds the query that ran
     * @param differ what differs between the twin's answer and this method's; empty when nothing does
     */
    private record Reporting<R>(String capability, String method, String argument, String resolvedName, Function<R, String> resolved,
            BiFunction<R, R, List<String>> differ) {

        void check(R twin, Told<R> told, List<String> passed, List<String> failures, List<String> notes) {
            String withListener = method + "(" + argument + ", listener)";
            HeardQueries heard = new HeardQueries();
            R answer = call(capability + " " + withListener, () -> told.run(heard), failures);
            if (answer == null) {
                return;
            }
            List<String> differences = differ.apply(twin, answer);
            if (!differences.isEmpty()) {
                failures.add(capability + ": " + withListener + ", which the gateway calls, does not answer as " + method
                        + "(" + argument + ") does: " + String.join("; ", differences));
            }
            List<String> queries = heard.queries();
            if (queries.contains(null)) {
                failures.add(capability + ": " + withListener + " told its listener a null query: tell the text of the query you send, or "
                        + "nothing");
                return;
            }
            String ran = resolved.apply(answer);
            if (queries.isEmpty()) {
                notes.add(capability + ": " + withListener + " tells its listener no query (optional"
                        + (ran.isEmpty() ? "; its answer has no " + resolvedName + " either, so no query ran for the sample)"
                                : ": without it, a call of this source that fails or times out is shown without the query it was "
                                        + "running)"));
                return;
            }
            String last = queries.getLast();
            if (last.equals(ran)) {
                passed.add(capability + ": " + withListener + " tells its listener the query its answer ran: " + excerpt(last, 0));
            } else {
                int at = firstDifference(last, ran);
                failures.add(capability + ": the last query " + withListener + " told its listener, " + excerpt(last, at)
                        + ", is not the " + resolvedName + " of its answer, " + excerpt(ran, at) + ": tell the very text you send, "
                        + "of the query whose answer you return");
            }
        }
    }

    /** A call of a method that tells {@code listener} the queries it sends. */
    @FunctionalInterface
    private interface Told<R> {
        R run(QueryListener listener) throws ConnectorException;
    }

    /** Every query a connector tells, in order, from whatever thread tells it (nulls kept: they break the contract). */
    private static final class HeardQueries implements QueryListener {
        private final List<String> queries = new CopyOnWriteArrayList<>();

        @Override
        public void sending(String query) {
            queries.add(query);
        }

        List<String> queries() {
            return Collections.unmodifiableList(new ArrayList<>(queries));
        }
    }

    /**
     * {@code text} quoted; a longer one cut to {@link #EXCERPT_CHARS} around {@code from} (where it
     * differs from the text it is compared with, so the difference stays in sight), with its length.
     */
    static String excerpt(String text, int from) {
        if (text.length() <= EXCERPT_CHARS) {
            return "'" + text + "'";
        }
        int start = Math.max(0, Math.min(from - EXCERPT_CHARS / 4, text.length() - EXCERPT_CHARS));
        int end = start + EXCERPT_CHARS;
        return "'" + (start > 0 ? "..." : "") + text.substring(start, end) + (end < text.length() ? "..." : "") + "' ("
                + text.length() + " characters)";
    }

    /** The first index where {@code a} and {@code b} differ; the shorter's length when one starts the other. */
    static int firstDifference(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            if (a.charAt(i) != b.charAt(i)) {
                return i;
            }
        }
        return n;
    }

    /** What differs between the twin's answer and {@code answer}, each named as {@code answer}'s value instead of the twin's. */
    private static List<String> logsDiffer(LogResult twin, LogResult answer) {
        List<String> differences = new ArrayList<>();
        texts("resolvedQuery", twin.resolvedQuery(), answer.resolvedQuery(), differences);
        if (twin.truncated() != answer.truncated()) {
            differences.add("truncated " + answer.truncated() + " instead of " + twin.truncated());
        }
        if (!twin.entries().equals(answer.entries())) {
            differences.add(twin.entries().size() == answer.entries().size() ? "other lines (as many, " + answer.entries().size() + ")"
                    : answer.entries().size() + " lines instead of " + twin.entries().size());
        }
        return differences;
    }

    private static List<String> aggregatesDiffer(MetricResult twin, MetricResult answer) {
        List<String> differences = new ArrayList<>();
        texts("resolvedSeries", twin.resolvedSeries(), answer.resolvedSeries(), differences);
        texts("resolvedLabel", twin.resolvedLabel(), answer.resolvedLabel(), differences);
        if (!twin.step().equals(answer.step())) {
            differences.add("step " + answer.step().map(Object::toString).orElse("(none)") + " instead of "
                    + twin.step().map(Object::toString).orElse("(none)"));
        }
        if (!twin.series().equals(answer.series())) {
            differences.add(twin.series().size() == answer.series().size() ? "other series (as many, " + answer.series().size() + ")"
                    : answer.series().size() + " series instead of " + twin.series().size());
        }
        return differences;
    }

    private static void texts(String member, String twin, String answer, List<String> differences) {
        if (!twin.equals(answer)) {
            int at = firstDifference(twin, answer);
            differences.add(member + " " + excerpt(answer, at) + " instead of " + excerpt(twin, at));
        }
    }

    private static Outcome metrics(MetricResult result) {
        return metrics(result, null, null);
    }

    /**
     * @param range the window asked for, or null where the call asked none (an aggregation's own);
     *     points more than one step outside it break the promise: the gateway reads every point of
     *     an answer as inside the window, and the anomaly detector would judge the wrong minutes
     */
    private static Outcome metrics(MetricResult result, TimeRange range, Duration step) {
        List<String> broken = new ArrayList<>();
        if (result == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        result.series().forEach(series -> {
            long[] times = series.epochMillis();
            for (int i = 1; i < times.length; i++) {
                if (times[i] < times[i - 1]) {
                    broken.add("series " + series.labels() + " has a point at " + Instant.ofEpochMilli(times[i]) + " after one at "
                            + Instant.ofEpochMilli(times[i - 1]) + ": give each series' points oldest first");
                    break;
                }
            }
            if (range != null) {
                Duration slack = result.step().filter(widened -> widened.compareTo(step) > 0).orElse(step);
                long from = range.start().minus(slack).toEpochMilli();
                long to = range.end().plus(slack).toEpochMilli();
                for (long at : times) {
                    if (at < from || at > to) {
                        broken.add("series " + series.labels() + " has a point at " + Instant.ofEpochMilli(at) + ", outside the asked "
                                + "window " + range.start() + " to " + range.end() + " (one step of slack): answer only the window");
                        break;
                    }
                }
            }
        });
        return new Outcome(broken, result.series().size() + " series", result);
    }

    private static Outcome logs(LogResult result, int limit, TimeRange range) {
        if (result == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        List<String> broken = new ArrayList<>();
        if (result.entries().size() > limit) {
            broken.add("returned " + result.entries().size() + " lines for a limit of " + limit + ": stop at the query's limit "
                    + "(LogQuery.limit())");
        }
        List<LogEntry> entries = result.entries();
        Instant from = range.start().minus(LOG_WINDOW_SLACK);
        Instant to = range.end().plus(LOG_WINDOW_SLACK);
        entries.stream().filter(e -> e.timestamp().isBefore(from) || e.timestamp().isAfter(to)).findFirst().ifPresent(e ->
                broken.add("a line at " + e.timestamp() + " is outside the asked window " + range.start() + " to " + range.end()
                        + ": answer only the window"));
        for (int i = 1; i < entries.size(); i++) {
            if (entries.get(i).timestamp().isAfter(entries.get(i - 1).timestamp())) {
                broken.add("lines are not newest first (line " + (i + 1) + ", at " + entries.get(i).timestamp() + ", is newer than line "
                        + i + ", at " + entries.get(i - 1).timestamp() + "): sort them by timestamp, newest first");
                break;
            }
        }
        return new Outcome(broken, entries.size() + " lines", result);
    }

    private static Outcome services(List<ServiceInfo> services) {
        if (services == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        List<String> broken = new ArrayList<>();
        for (int i = 1; i < services.size(); i++) {
            if (services.get(i).name().compareTo(services.get(i - 1).name()) < 0) {
                broken.add("services are not sorted by name ('" + services.get(i).name() + "' is listed after '"
                        + services.get(i - 1).name() + "'): sort them by name, as Comparator.comparing(ServiceInfo::name) does");
                break;
            }
        }
        return new Outcome(broken, services.size() + " services");
    }

    /**
     * serviceListing is the call the gateway makes. A connector that overrides it is held to the contract there (its
     * services as for listServices, no blank warning); otherwise it is listServices with nothing left out, and
     * listServices is what is checked.
     */
    private static Outcome services(ServiceListingCapability connector) throws ConnectorException {
        if (!overridesServiceListing(connector)) {
            return services(connector.listServices());
        }
        ServiceListing listing = connector.serviceListing();
        if (listing == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        Outcome services = services(listing.services());
        List<String> broken = new ArrayList<>(services.broken());
        if (listing.warnings().stream().anyMatch(String::isBlank)) {
            broken.add("serviceListing returned a blank warning: give each warning as one line saying what the listing left out, "
                    + "or return no warning");
        }
        String warned = listing.warnings().isEmpty() ? "" : " (" + listing.warnings().size() + " warnings)";
        return new Outcome(broken, services.summary() + warned);
    }

    /**
     * metricDiscovery is the call the gateway makes. A connector that overrides it is held to the contract there; otherwise
     * it is discoverMetrics with nothing left out, and discoverMetrics is what is checked (so a null answer is named as
     * such rather than as the default's failure to wrap it).
     */
    private static MetricDiscovery discovered(MetricDiscoveryCapability discovery, String service) throws ConnectorException {
        if (overridesMetricDiscovery(discovery)) {
            return discovery.metricDiscovery(service, DISCOVERY_LIMIT);
        }
        List<MetricInfo> metrics = discovery.discoverMetrics(service, DISCOVERY_LIMIT);
        return metrics == null ? null : new MetricDiscovery(metrics);
    }

    /** The discovery method the contract calls, as the author knows it. */
    private static String discoveryMethod(MetricDiscoveryCapability discovery) {
        return overridesMetricDiscovery(discovery) ? "metricDiscovery" : "discoverMetrics";
    }

    private static boolean overridesMetricDiscovery(MetricDiscoveryCapability connector) {
        try {
            return connector.getClass().getMethod("metricDiscovery", String.class, int.class).getDeclaringClass()
                    != MetricDiscoveryCapability.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("MetricDiscoveryCapability.metricDiscovery(String, int) is part of the SDK this kit was "
                    + "built with", e);
        }
    }

    private static boolean overridesServiceListing(ServiceListingCapability connector) {
        try {
            return connector.getClass().getMethod("serviceListing").getDeclaringClass() != ServiceListingCapability.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("ServiceListingCapability.serviceListing() is part of the SDK this kit was built with", e);
        }
    }

    /**
     * searchTraces is the call the gateway makes. A connector that overrides it is held to the contract
     * there; otherwise it is queryTraces with nothing missing, and queryTraces is what is checked (so a
     * null answer is named as such rather than as the default's failure to wrap it).
     */
    private static Outcome traces(TracesCapability connector, TraceQuery query) throws ConnectorException {
        return overridesSearchTraces(connector)
                ? traces(connector.searchTraces(query), query.limit())
                : traces(connector.queryTraces(query), query.limit());
    }

    private static boolean overridesSearchTraces(TracesCapability connector) {
        try {
            return connector.getClass().getMethod("searchTraces", TraceQuery.class).getDeclaringClass() != TracesCapability.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("TracesCapability.searchTraces(TraceQuery) is part of the SDK this kit was built with", e);
        }
    }

    private static Outcome traces(TraceResult result, int limit) {
        if (result == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        Outcome traces = traces(result.traces(), limit);
        List<String> broken = new ArrayList<>(traces.broken());
        for (String warning : result.warnings()) {
            if (warning.isBlank()) {
                broken.add("searchTraces returned a blank warning: give each warning as one line saying what the answer lacks, "
                        + "or return no warning");
            }
        }
        String warned = result.warnings().isEmpty() ? "" : " (" + result.warnings().size() + " warnings)";
        return new Outcome(broken, traces.summary() + warned);
    }

    private static Outcome traces(List<TraceSummary> traces, int limit) {
        if (traces == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        List<String> broken = new ArrayList<>();
        if (traces.size() > limit) {
            broken.add("returned " + traces.size() + " traces for a limit of " + limit
                    + ": stop at the query's limit (TraceQuery.limit())");
        }
        for (TraceSummary trace : traces) {
            if (!HEX.matcher(trace.traceId()).matches()) {
                broken.add("trace id '" + trace.traceId() + "' is not lower-case hex: give trace ids in lower-case hex (a hex id in "
                        + "capitals through toLowerCase(Locale.ROOT))");
            }
            // NaN is how a connector says "unknown" (TraceSummary.UNKNOWN_DURATION); a negative or infinite one is a bug
            if (trace.durationMs() < 0 || Double.isInfinite(trace.durationMs())) {
                broken.add("trace " + trace.traceId() + " has a duration of " + trace.durationMs()
                        + " ms; a duration the backend did not tell is TraceSummary.UNKNOWN_DURATION (NaN)");
            }
            if (trace.spanCount() < 1) {
                broken.add("trace " + trace.traceId() + " has a spanCount of " + trace.spanCount() + ": count the trace's spans (a trace "
                        + "the backend found has at least one)");
            }
        }
        return new Outcome(broken, traces.size() + " traces");
    }

    private static Outcome topology(Topology topology) {
        if (topology == null) {
            return new Outcome(List.of(RETURNED_NULL), "");
        }
        Set<String> ids = new HashSet<>();
        topology.nodes().stream().map(TopologyNode::id).forEach(ids::add);
        List<String> broken = new ArrayList<>();
        for (TopologyEdge edge : topology.edges()) {
            if (!ids.contains(edge.from()) || !ids.contains(edge.to())) {
                broken.add("edge " + edge.from() + " " + edge.relation() + " " + edge.to() + " names a node the topology does not hold: "
                        + "add a TopologyNode for both ends of every edge, or leave the edge out");
            }
        }
        return new Outcome(broken, topology.nodes().size() + " nodes, " + topology.edges().size() + " edges");
    }

    @FunctionalInterface
    interface Call<T> {
        T run() throws ConnectorException;
    }

    /** Runs one call on a virtual thread with the timeout; a throw or timeout is a failure. */
    /**
     * {@code discoverMetrics} for a service no backend has: the gateway reads each name of the answer as a metric the
     * service exports (query_metrics' name hints) and fails a source's service listing on a failed discovery, so the answer
     * must be empty and no failure. Run only once the sample discovery passed, so the mock is known to answer.
     */
    private static void unknownServiceDiscovery(MetricDiscoveryCapability discovery, List<String> passed, List<String> failures) {
        String asked = discoveryMethod(discovery) + "(\"" + UNKNOWN_SERVICE + "\", " + DISCOVERY_LIMIT + ")";
        String fix = "return an empty list for a service the backend does not know";
        List<String> failed = new ArrayList<>();
        var answer = call(asked, () -> discovered(discovery, UNKNOWN_SERVICE), failed);
        var metrics = answer == null ? null : answer.metrics();
        if (!failed.isEmpty()) {
            failed.forEach(failure -> failures.add("MetricDiscoveryCapability: " + failure.replace(" on the sample query", "") + "; "
                    + fix + ": a failed discovery fails your source's service listing in that call"));
            return;
        }
        if (!metrics.isEmpty()) {
            String names = metrics.stream().limit(3).map(MetricInfo::name).collect(Collectors.joining(", "))
                    + (metrics.size() > 3 ? ", ..." : "");
            failures.add("MetricDiscoveryCapability: " + asked + " returned " + metrics.size() + " metrics (" + names + "); " + fix
                    + ": the gateway offers each name as one of that service's own metrics (if only your mock answers every "
                    + "service alike, make it answer no series for other services)");
            return;
        }
        passed.add("MetricDiscoveryCapability: no metrics for a service the backend does not know");
    }

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

    static String describe(Throwable e) {
        if (e instanceof ConnectorException failure) {
            return "ConnectorException(" + failure.kind() + "): " + failure.getMessage();
        }
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
