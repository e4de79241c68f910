package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An in-memory connector whose answers a test scripts: topology, traces, logs and the service list, each answering,
 * failing with a {@link ConnectorException}, or hanging until the fan-out gives up on it. Only the
 * capabilities given an answer are declared, so the registry routes exactly those to it. Records
 * every query it receives.
 */
final class ScriptedConnector implements Connector, TopologyCapability, TracesCapability, LogsCapability, ServiceListingCapability {
    /** What one capability does when asked. */
    @FunctionalInterface
    interface Answer<Q, R> {
        R answer(Q query) throws ConnectorException;
    }

    private Answer<String, Topology> topology;
    private Answer<TraceQuery, List<TraceSummary>> traces;
    private List<String> traceWarnings = List.of();
    private Answer<LogQuery, LogResult> logs;
    private Answer<Void, List<ServiceInfo>> services;
    final List<String> topologyNamespaces = new CopyOnWriteArrayList<>();
    final List<TraceQuery> traceQueries = new CopyOnWriteArrayList<>();
    final List<LogQuery> logQueries = new CopyOnWriteArrayList<>();
    private volatile SourceConfig source = new SourceConfig("scripted", "scripted", "", "", JsonObject.EMPTY_JSON_OBJECT);
    private boolean interruptible;
    private Function<LogQuery, String> logql;

    ScriptedConnector topology(Answer<String, Topology> answer) {
        this.topology = answer;
        return this;
    }

    ScriptedConnector topology(Topology answer) {
        return topology(namespace -> answer);
    }

    ScriptedConnector traces(Answer<TraceQuery, List<TraceSummary>> answer) {
        this.traces = answer;
        return this;
    }

    ScriptedConnector traces(List<TraceSummary> answer) {
        return traces(query -> answer);
    }

    /** What every trace search says its answer lacks ({@link TraceResult#warnings()}), alongside its traces. */
    ScriptedConnector traceWarnings(String... warnings) {
        this.traceWarnings = List.of(warnings);
        return this;
    }

    ScriptedConnector logs(Answer<LogQuery, LogResult> answer) {
        this.logs = answer;
        return this;
    }

    /**
     * Tells the gateway {@code logql} of each log search before answering it, as the Loki connector
     * tells its LogQL; a null text stands for a search that fails before it sends a query. Without
     * it the connector keeps the SDK's default, which tells nothing.
     */
    ScriptedConnector reportingLogs(Function<LogQuery, String> logql) {
        this.logql = logql;
        return this;
    }

    ScriptedConnector services(Answer<Void, List<ServiceInfo>> answer) {
        this.services = answer;
        return this;
    }

    ScriptedConnector services(String... names) {
        List<ServiceInfo> listed = Arrays.stream(names).map(n -> new ServiceInfo(n, Map.of())).toList();
        return services(ignored -> listed);
    }

    /**
     * Declares the connector {@linkplain Connector#interruptible() interruptible}, as the builtin
     * Loki connector does, so a fan-out to it alone runs it on the caller's thread.
     */
    ScriptedConnector claimingInterruptible() {
        this.interruptible = true;
        return this;
    }

    /**
     * A capability that ignores interrupts until {@code release} opens, then answers {@code answer}:
     * a connector busy parsing a large answer, which no interrupt stops.
     */
    static <Q, R> Answer<Q, R> ignoringInterruptsUntil(CountDownLatch release, R answer) {
        return query -> {
            boolean interrupted = false;
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return answer;
        };
    }

    /** A capability that fails the way an unreachable backend does. */
    static <Q, R> Answer<Q, R> unavailable(String message) {
        return query -> {
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, message);
        };
    }

    /** A capability that never answers: it waits until the fan-out interrupts it. */
    static <Q, R> Answer<Q, R> hanging() {
        return query -> {
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "interrupted");
        };
    }

    @Override
    public boolean interruptible() {
        return interruptible;
    }

    Capabilities declared() {
        return new Capabilities(false, logs != null, services != null, traces != null, topology != null);
    }

    void boundTo(SourceConfig config) {
        this.source = config;
    }

    @Override
    public Topology topology(String namespace) throws ConnectorException {
        topologyNamespaces.add(namespace);
        return topology.answer(namespace);
    }

    @Override
    public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
        traceQueries.add(query);
        return traces.answer(query);
    }

    @Override
    public TraceResult searchTraces(TraceQuery query) throws ConnectorException {
        return new TraceResult(queryTraces(query), traceWarnings);
    }

    @Override
    public LogResult queryLogs(LogQuery query) throws ConnectorException {
        logQueries.add(query);
        return logs.answer(query);
    }

    @Override
    public LogResult queryLogs(LogQuery query, QueryListener listener) throws ConnectorException {
        String sent = logql == null ? null : logql.apply(query);
        if (sent != null) {
            listener.sending(sent);
        }
        return queryLogs(query);
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return services.answer(null);
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        return new Health(true, "scripted", Duration.ZERO);
    }

    @Override
    public void close() {
        // nothing held
    }
}
