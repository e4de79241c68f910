package dev.omcp.core.tools.observability;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;

/**
 * An in-memory logs source that searches like Loki does: time range, line regex, level field
 * (case-insensitive) and exact-match labels, newest first, cut at the limit. It searches lines only;
 * {@link WithAggregates} also computes aggregates.
 */
class FakeLogsBackend implements Connector, LogsCapability {
    private final SourceConfig source;
    private final Map<String, List<LogEntry>> byService = new ConcurrentHashMap<>();
    final List<LogQuery> queries = new CopyOnWriteArrayList<>();
    private volatile boolean hang;
    private volatile ConnectorException failAll;
    private volatile List<String> warnings = List.of();

    FakeLogsBackend(String name) {
        this.source = new SourceConfig(name, "fake-logs", "https://" + name + ".example.com", "", JsonObject.EMPTY_JSON_OBJECT);
    }

    /** Adds a line of {@code service} written at {@code at} with the stream labels {@code labels}. */
    FakeLogsBackend line(String service, Instant at, Map<String, String> labels, String line) {
        byService.computeIfAbsent(service, s -> new CopyOnWriteArrayList<>()).add(new LogEntry(at, line, labels));
        return this;
    }

    /** Every answer (lines or counts) says {@code lines} alongside it, as Loki's warnings. */
    FakeLogsBackend warning(String... lines) {
        this.warnings = List.of(lines);
        return this;
    }

    List<String> warnings() {
        return warnings;
    }

    FakeLogsBackend hanging() {
        this.hang = true;
        return this;
    }

    FakeLogsBackend failingAll(ConnectorException e) {
        this.failAll = e;
        return this;
    }

    /** Blocks like a backend that never answers, or fails, when told to. */
    void misbehave() throws ConnectorException {
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
    }

    boolean knows(String service) {
        return byService.containsKey(service);
    }

    @Override
    public LogResult queryLogs(LogQuery query) throws ConnectorException {
        queries.add(query);
        misbehave();
        if (!knows(query.service())) {
            return new LogResult(List.of(), false, "");
        }
        Pattern regex = query.lineRegex().map(Pattern::compile).orElse(null);
        List<LogEntry> matching = new ArrayList<>();
        for (LogEntry e : byService.get(query.service())) {
            boolean inRange = !e.timestamp().isBefore(query.range().start()) && e.timestamp().isBefore(query.range().end());
            boolean lineOk = regex == null || regex.matcher(e.line()).find();
            boolean levelOk = query.level().map(l -> l.equalsIgnoreCase(e.labels().getOrDefault("level", ""))).orElse(true);
            boolean labelsOk = query.labels().entrySet().stream().allMatch(f -> f.getValue().equals(e.labels().get(f.getKey())));
            if (inRange && lineOk && levelOk && labelsOk) {
                matching.add(e);
            }
        }
        matching.sort(Comparator.comparing(LogEntry::timestamp).reversed());
        boolean truncated = matching.size() > query.limit();
        return new LogResult(matching.subList(0, Math.min(query.limit(), matching.size())), truncated, logql(query), warnings);
    }

    /** The query this fake says it ran, for answers and for {@link Reporting}'s listener alike. */
    String logql(LogQuery query) {
        return "{service_name=\"" + query.service() + "\"}" + query.lineRegex().map(r -> " |~ \"" + r + "\"").orElse("");
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        return new Health(true, "fake logs", Duration.ofMillis(1));
    }

    @Override
    public void close() {}

    /** A logs source that also computes aggregates: the series it answers are set per service. */
    static class WithAggregates extends FakeLogsBackend implements dev.omcp.sdk.connector.LogAggregatesCapability {
        private final Map<String, List<dev.omcp.sdk.query.Series>> aggregates = new ConcurrentHashMap<>();
        final List<dev.omcp.sdk.query.LogAggregation> aggregations = new CopyOnWriteArrayList<>();
        private volatile java.util.Optional<Duration> ranStep = java.util.Optional.empty();

        WithAggregates(String name) {
            super(name);
        }

        /** Answers that the counts ran at {@code step}, as a connector that widened the step says. */
        WithAggregates running(Duration step) {
            this.ranStep = java.util.Optional.of(step);
            return this;
        }

        /** What aggregates of {@code service} answer. */
        WithAggregates aggregates(String service, List<dev.omcp.sdk.query.Series> series) {
            aggregates.put(service, series);
            return this;
        }

        @Override
        public dev.omcp.sdk.query.MetricResult aggregateLogs(dev.omcp.sdk.query.LogAggregation aggregation) throws ConnectorException {
            aggregations.add(aggregation);
            misbehave();
            String service = aggregation.query().service();
            if (!aggregates.containsKey(service) && !knows(service)) {
                return new dev.omcp.sdk.query.MetricResult(List.of(), "", "");
            }
            return new dev.omcp.sdk.query.MetricResult(aggregates.getOrDefault(service, List.of()), logql(aggregation), "service_name",
                    ranStep, warnings());
        }

        String logql(dev.omcp.sdk.query.LogAggregation aggregation) {
            return aggregation.function().name().toLowerCase() + "(" + logql(aggregation.query()) + ")";
        }
    }

    /**
     * A source whose connector tells the gateway each query before it runs it, as the Loki connector
     * does; the plain fakes above leave the SDK's default, which tells nothing. A {@link #commented}
     * query carries a LogQL comment, to see it redacted like the rest of the answer.
     */
    static final class Reporting extends WithAggregates {
        private volatile String comment = "";

        Reporting(String name) {
            super(name);
        }

        Reporting commented(String text) {
            this.comment = " # " + text;
            return this;
        }

        @Override
        String logql(LogQuery query) {
            return super.logql(query) + comment;
        }

        @Override
        public LogResult queryLogs(LogQuery query, QueryListener listener) throws ConnectorException {
            listener.sending(logql(query));
            return queryLogs(query);
        }

        @Override
        public dev.omcp.sdk.query.MetricResult aggregateLogs(dev.omcp.sdk.query.LogAggregation aggregation, QueryListener listener)
                throws ConnectorException {
            listener.sending(logql(aggregation));
            return aggregateLogs(aggregation);
        }
    }
}
