package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.SeriesOrder;
import dev.omcp.core.sources.Bound;
import dev.omcp.core.sources.FanOut;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.MetricQuery;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Metric series of one or more services, fetched from every metrics source in <em>one</em> parallel
 * batch: every (service, metric, source) query runs at once on its own virtual thread, so a call
 * asking five signals of ten services takes about as long as the slowest single backend request,
 * not the sum. Failures are kept per query; the common output members aggregate them per source.
 */
public final class MetricBatch {
    /** One metric of one service. */
    public record Request(String service, String metric) {
        public Request {
            Objects.requireNonNull(service, "service");
            Objects.requireNonNull(metric, "metric");
        }
    }

    /**
     * What the query shape is, besides service and metric.
     *
     * @param callerTenant the caller's tenant, empty when none: the gateway's own anomaly series are read for it only
     *     ({@link TenantAnomalySeries})
     */
    public record Shape(TimeRange range, Duration step, List<String> groupBy, Map<String, String> labels, String callerTenant) {
        public Shape {
            Objects.requireNonNull(range, "range");
            Objects.requireNonNull(step, "step");
            Objects.requireNonNull(callerTenant, "callerTenant");
            groupBy = List.copyOf(groupBy);
            labels = Map.copyOf(labels);
        }
    }

    /** One source's answer to one request. */
    public record Answer(Request request, String source, MetricResult result) {}

    /** One source's failure on one request; {@code message} is safe to show. */
    public record Failure(Request request, String source, ConnectorException.Kind kind, String message) {}

    /** The connector and the query it is to run, so one fan-out covers every pair. */
    private record Pending(MetricsCapability metrics, MetricQuery query) {}

    private final List<Request> requests;
    private final int sourceCount;
    private final List<Answer> answers;
    private final List<Failure> failures;
    /** Per plugin source, the line saying which of its points were left out ({@link PluginSeriesWindow}). */
    private final Map<String, String> leftOut;
    /** What the sources' warnings go through before they are shown ({@link Toolkit#failureRedaction()}). */
    private final UnaryOperator<String> warningRedaction;

    private MetricBatch(List<Request> requests, int sourceCount, List<Answer> answers, List<Failure> failures,
            Map<String, String> leftOut, UnaryOperator<String> warningRedaction) {
        this.requests = List.copyOf(requests);
        this.sourceCount = sourceCount;
        this.answers = List.copyOf(answers);
        this.failures = List.copyOf(failures);
        this.leftOut = new LinkedHashMap<>(leftOut);
        this.warningRedaction = warningRedaction;
    }

    /**
     * Runs every request against every source within the toolkit's per-source timeout and overall
     * deadline.
     */
    public static MetricBatch fetch(Toolkit toolkit, List<Bound<MetricsCapability>> sources, List<Request> requests, Shape shape) {
        return fetch(toolkit, sources, requests, shape, toolkit.deadline());
    }

    /** As {@link #fetch(Toolkit, List, List, Shape)}, within {@code overall} instead of the whole tool deadline. */
    static MetricBatch fetch(Toolkit toolkit, List<Bound<MetricsCapability>> sources, List<Request> requests, Shape shape,
            Duration overall) {
        List<Bound<Pending>> pairs = new ArrayList<>(sources.size() * requests.size());
        List<Request> requestOf = new ArrayList<>(pairs.size());
        for (Request request : requests) {
            MetricQuery query = new MetricQuery(request.service(), request.metric(), shape.range(), shape.step(), shape.groupBy(),
                    TenantAnomalySeries.labels(request.metric(), shape.labels(), shape.callerTenant()));
            for (Bound<MetricsCapability> source : sources) {
                pairs.add(source.carrying(new Pending(source.capability(), query)));
                requestOf.add(request);
            }
        }
        List<FanOut.Outcome<MetricResult>> outcomes = FanOut.call(pairs, p -> p.metrics().queryMetrics(p.query()),
                toolkit.perSourceTimeout(), overall, toolkit.failureRedaction());
        List<Answer> answers = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        PluginSeriesWindow window = new PluginSeriesWindow(shape.range(), shape.step());
        for (int i = 0; i < outcomes.size(); i++) {
            switch (outcomes.get(i)) {
                case FanOut.Outcome.Answered<MetricResult> a -> {
                    // a builtin reader leaves out what lies outside the window as it reads (SampleChecks); a plugin may not
                    MetricResult checked = pairs.get(i).builtin() ? a.value() : window.inside(a.source(), a.value());
                    answers.add(new Answer(requestOf.get(i), a.source(), inTimeOrder(checked)));
                }
                case FanOut.Outcome.Failed<MetricResult> f -> failures.add(new Failure(requestOf.get(i), f.source(), f.kind(), f.message()));
            }
        }
        return new MetricBatch(requests, sources.size(), answers, failures, window.warnings(), toolkit.failureRedaction());
    }

    /**
     * The answer with every series in time order, one point per timestamp ({@link SeriesOrder}); the
     * same instance when they already are. The one place series enter the tools' analysis: a plugin
     * connector may break the SDK's promise of ascending timestamps, and every reader after this one
     * takes the first point as the oldest and the last as the latest.
     */
    static MetricResult inTimeOrder(MetricResult result) {
        List<Series> ordered = new ArrayList<>(result.series().size());
        boolean changed = false;
        for (Series s : result.series()) {
            Series o = SeriesOrder.ascending(s);
            changed |= o != s;
            ordered.add(o);
        }
        return changed ? new MetricResult(ordered, result.resolvedSeries(), result.resolvedLabel(), result.step(), result.warnings())
                : result;
    }

    public List<Request> requests() {
        return requests;
    }

    public List<Answer> answers() {
        return answers;
    }

    public List<Failure> failures() {
        return failures;
    }

    /** The answers to {@code request}, in source order. */
    public List<Answer> answersTo(Request request) {
        return answers.stream().filter(a -> a.request().equals(request)).toList();
    }

    /** The failures of {@code request}, in source order. */
    public List<Failure> failuresOf(Request request) {
        return failures.stream().filter(f -> f.request().equals(request)).toList();
    }

    /** Whether no metrics source could be asked at all. */
    public boolean noSource() {
        return sourceCount == 0;
    }

    /** Whether some query failed (what succeeded is still there). */
    public boolean partial() {
        return !failures.isEmpty();
    }

    /** The sources that answered at least one query, in order. */
    public Set<String> answeringSources() {
        Set<String> names = new LinkedHashSet<>();
        answers.forEach(a -> names.add(a.source()));
        return names;
    }

    /**
     * Adds {@code sources}, {@code partial}, when some query failed {@code failedSources} (see
     * {@link #failureEntries()}), and when a source said something alongside its answer, or the
     * gateway left out points a plugin source answered outside the window, {@code backendWarnings}
     * (see {@link #warningEntries()}).
     */
    public JsonObjectBuilder writeTo(JsonObjectBuilder out) {
        JsonArrayBuilder sources = Jsonp.array();
        answeringSources().forEach(sources::add);
        out.add("sources", sources).add("partial", partial());
        if (!failures.isEmpty()) {
            JsonArrayBuilder failed = Jsonp.array();
            failureEntries().forEach(failed::add);
            out.add("failedSources", failed);
        }
        return writeWarningsTo(out);
    }

    /** Adds {@code backendWarnings} when a source said something alongside its answer ({@link #warningEntries()}); nothing otherwise. */
    public JsonObjectBuilder writeWarningsTo(JsonObjectBuilder out) {
        return warned().writeTo(out);
    }

    /**
     * A sentence for the note when a plugin source answered points outside the asked window, which
     * were left out; empty otherwise.
     */
    public Optional<String> leftOutNote() {
        return leftOut.isEmpty() ? Optional.empty() : Optional.of(PluginSeriesWindow.LEFT_OUT_NOTE);
    }

    /**
     * What the sources said alongside their answers (Prometheus' warnings and infos, a query
     * frontend's partial-response warning), one entry per source with its distinct warnings: an
     * answer that looks complete may lack some stores' data, and the agent must be able to tell.
     */
    public List<JsonObject> warningEntries() {
        return warned().entries();
    }

    /**
     * What {@link #warningEntries()} lists, for a tool that joins it with other searches' warnings in
     * one {@code backendWarnings} ({@code generate_postmortem}). A new instance on each call.
     */
    WarnedSources warned() {
        WarnedSources warned = new WarnedSources(warningRedaction);
        // first, so a plugin's own ten distinct warnings cannot push out the one that says its points were left out
        leftOut.forEach((source, line) -> warned.add(source, List.of(line)));
        answers.forEach(a -> warned.add(a.source(), a.result().warnings()));
        return warned;
    }

    /**
     * The failures as {@code failedSources} entries: one per source and kind of failure, with how
     * many of its queries failed that way and for which metrics, so forty timed-out queries to one
     * source are one line.
     */
    public List<JsonObject> failureEntries() {
        record Key(String source, ConnectorException.Kind kind, String message) {}
        Map<Key, List<Failure>> grouped = new LinkedHashMap<>();
        failures.forEach(f -> grouped.computeIfAbsent(new Key(f.source(), f.kind(), f.message()), k -> new ArrayList<>()).add(f));
        List<JsonObject> entries = new ArrayList<>();
        grouped.forEach((key, list) -> {
            Set<String> metrics = new LinkedHashSet<>();
            list.forEach(f -> metrics.add(f.request().metric()));
            JsonArrayBuilder metricNames = Jsonp.array();
            metrics.forEach(metricNames::add);
            entries.add(Jsonp.object().add("source", key.source()).add("kind", key.kind().name().toLowerCase(Locale.ROOT))
                    .add("error", key.message()).add("failedQueries", list.size()).add("metrics", metricNames).build());
        });
        return entries;
    }
}
