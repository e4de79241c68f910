package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code query_metrics}: one metric of one service from every metrics source, each series reduced
 * to its statistics and a bounded number of points (spec 4.4: {@code resolvedSeries},
 * {@code resolvedLabel}; spec 2.11: {@code .catalog}).
 */
public final class QueryMetricsTool extends ObservabilityTool {
    static final String NAME = "query_metrics";
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_POINTS = 60;
    /** Without a step, the window is cut into about this many points (never finer than 15 s). */
    static final int TARGET_POINTS = 240;
    static final Duration MIN_DEFAULT_STEP = Duration.ofSeconds(15);

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Query metrics",
            "Reads one metric of one service over a time window from every metrics source (Prometheus and compatible) and "
                    + "returns numbers, not raw samples: per series its labels, point count, min, max, average, latest value and "
                    + "the values averaged into at most `points` buckets. Use a curated metric (error_rate, latency_p99, "
                    + "request_rate, cpu, memory, ...) unless you know the backend's metric name. `groupBy` splits the result by "
                    + "labels (for example pod), `labels` filters by exact label values. `resolvedSeries` shows the backend "
                    + "query that ran and `resolvedLabel` the label that identified the service. Use it after "
                    + "get_service_health or detect_anomalies pointed at a signal; for logs of the same moment call query_logs.",
            Schemas.object()
                    .required("service", Schemas.service("The service, as list_services names it (may contain slashes)."))
                    .required("metric", CuratedMetricNames.schema("The metric to read: a name, not a query; label filters go in `labels`."))
                    .property("duration", Schemas.duration("How far back from now to read.", "1h"))
                    .property("step", OutputFields.optionalDuration("Resolution of the backend query (default: the window / "
                            + TARGET_POINTS + ", at least 15s). The backend may widen it to stay under its point limit."))
                    .property("groupBy", Schemas.labelNames("Labels to keep as separate series, for example [\"pod\"]; "
                            + "by default all series of the service are summed into one. OpenTelemetry-style names such as "
                            + "http.route need Prometheus 3.", 8, Schemas.METRIC_LABEL_PATTERN))
                    .property("labels", Schemas.labels("Exact-match label filters, for example {\"namespace\": \"prod\"}.",
                            Schemas.METRIC_LABEL_PATTERN))
                    .property("source", Schemas.source("Only ask this source (a name from list_sources)."))
                    .property("limit", Schemas.integer("The most series to return, highest average first.", 1, MAX_LIMIT, DEFAULT_LIMIT))
                    .property("points", Schemas.integer("The most values per series: the window is cut into this many equal "
                            + "buckets and each holds the mean of its samples.", 1, SeriesSummary.MAX_BUCKETS, DEFAULT_POINTS))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("service", OutputFields.type("string"))
                    .add("metric", OutputFields.type("string"))
                    .add("unit", OutputFields.type("string").add("description", "Unit of a curated metric; absent for raw metric names."))
                    .add("duration", OutputFields.type("string"))
                    .add("step", OutputFields.type("string").add("description", "The step the backend answered at."))
                    .add("requestedStep", OutputFields.type("string").add("description",
                            "The step asked for, only when the source widened it (it caps the points of a series)."))
                    .add("from", OutputFields.type("string"))
                    .add("to", OutputFields.type("string"))
                    .add("resolvedSeries", OutputFields.nullableString(
                            "The backend query that ran (PromQL for Prometheus); null when no source knows the service."))
                    .add("resolvedLabel", OutputFields.nullableString(
                            "The label that identified the service (for example job); null when none matched."))
                    .add("resolutions", OutputFields.objects("Per answering source: the query that ran and the label that "
                            + "identified the service (both null when the source does not know the service).", Jsonp.object()
                                    .add("source", OutputFields.type("string"))
                                    .add("resolvedSeries", OutputFields.nullableString("The backend query that ran."))
                                    .add("resolvedLabel", OutputFields.nullableString("The label that identified the service."))))
                    .add("series", OutputFields.objects("The series, highest average first, each summarised.",
                            SeriesSummary.schemaProperties(false).add("source", OutputFields.typed("string", "The source it came from."))))
                    .add("totalSeries", OutputFields.type("integer"))
                    .add("truncated", OutputFields.type("boolean"))
                    .add("catalog", ServiceCatalog.schema()),
                    List.of("service", "metric", "series", "totalSeries", "truncated", "resolvedSeries", "resolvedLabel", "sources",
                            "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public QueryMetricsTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String service = args.string("service");
        String metric = args.string("metric");
        Duration duration = args.duration("duration", "1h");
        Duration step = OutputFields.optionalDuration(args, "step").orElse(defaultStep(duration));
        if (step.compareTo(duration) > 0) {
            throw new InvalidArgumentException("step " + Durations.format(step) + " is longer than the window "
                    + Durations.format(duration) + "; use a shorter step or a longer duration");
        }
        Map<String, String> labels = LabelArguments.metricFilters(args, "labels");
        List<String> groupBy = args.strings("groupBy");
        Optional<String> onlySource = args.optionalString("source");
        int limit = args.integer("limit", DEFAULT_LIMIT);
        int points = args.integer("points", DEFAULT_POINTS);

        // whole seconds: backends align to them, and answers read better
        Instant now = toolkit.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        TimeRange range = TimeRange.ending(now, duration);
        SourceArgument.check(toolkit.sources(), onlySource, MetricsCapability.class, "metric queries", call.principal());
        List<Bound<MetricsCapability>> bound = toolkit.sources().with(MetricsCapability.class, call.principal(),
                onlySource.map(Set::of));
        MetricBatch.Request request = new MetricBatch.Request(service, metric);
        MetricBatch batch = MetricBatch.fetch(toolkit, bound, List.of(request),
                new MetricBatch.Shape(range, step, groupBy, labels, call.principal().tenant()));

        record Found(String source, Series series, double mean) {}
        List<Found> found = new ArrayList<>();
        JsonArrayBuilder resolutions = Jsonp.array();
        String resolvedSeries = null;
        String resolvedLabel = null;
        for (MetricBatch.Answer answer : batch.answersTo(request)) {
            boolean resolved = !answer.result().resolvedLabel().isEmpty();
            if (resolved && resolvedLabel == null) {
                resolvedLabel = answer.result().resolvedLabel();
                resolvedSeries = answer.result().resolvedSeries();
            }
            JsonObjectBuilder resolution = Jsonp.object().add("source", answer.source());
            if (resolved) {
                resolution.add("resolvedSeries", answer.result().resolvedSeries()).add("resolvedLabel", answer.result().resolvedLabel());
            } else {
                resolution.addNull("resolvedSeries").addNull("resolvedLabel");
            }
            resolutions.add(resolution);
            for (Series s : answer.result().series()) {
                double mean = SeriesSummary.Stats.of(s).mean();
                found.add(new Found(answer.source(), s, Double.isNaN(mean) ? Double.NEGATIVE_INFINITY : mean));
            }
        }
        found.sort(Comparator.comparingDouble((Found f) -> -f.mean()).thenComparing(Found::source));
        JsonArrayBuilder series = Jsonp.array();
        for (Found f : found.subList(0, Math.min(limit, found.size()))) {
            series.add(SeriesSummary.of(f.series(), points, false).add("source", f.source()));
        }

        JsonObjectBuilder result = Jsonp.object()
                .add("service", service)
                .add("metric", metric);
        CuratedMetricNames.unit(metric).ifPresent(unit -> result.add("unit", unit));
        // a backend caps the points of a series and widens a finer step itself: say which step ran
        // the connectors that report their step say it; for others the answer's timestamps do
        Optional<Duration> reported = batch.answersTo(request).stream().map(a -> a.result().step()).flatMap(Optional::stream)
                .max(Duration::compareTo);
        Duration ran = reported.or(() -> stepThatRan(found.stream().map(Found::series).toList()))
                .filter(r -> r.compareTo(step) > 0).orElse(step);
        result.add("duration", Durations.format(duration))
                .add("step", Durations.format(ran));
        if (!ran.equals(step)) {
            result.add("requestedStep", Durations.format(step));
        }
        result.add("from", range.start().toString())
                .add("to", range.end().toString());
        if (resolvedSeries == null) {
            result.addNull("resolvedSeries").addNull("resolvedLabel");
        } else {
            result.add("resolvedSeries", resolvedSeries).add("resolvedLabel", resolvedLabel);
        }
        result.add("resolutions", resolutions)
                .add("series", series)
                .add("totalSeries", found.size())
                .add("truncated", found.size() > limit);
        toolkit.catalog().entry(service).ifPresent(entry -> result.add("catalog", entry));
        batch.writeTo(result);
        MetricNameSuggestions suggestions = new MetricNameSuggestions(toolkit);
        // none of the caller's own scores: said in words that hold whatever other tenants' scores there are
        Optional<String> noneOfTheCallersScores = AnomalySeries.isOwn(metric) ? Optional.of(TenantAnomalySeries.noneRecorded(service,
                metric, duration, !labels.isEmpty(), call.principal().tenant(), toolkit.history().remoteSinkConfigured()))
                : Optional.empty();
        Optional<String> note = note(batch, onlySource, service, metric, duration, resolvedLabel, found.size(), limit, !labels.isEmpty(),
                noneOfTheCallersScores,
                () -> new ServiceNameSuggestions(toolkit).elsewhereOrDidYouMean(service, call.principal(), MetricsCapability.class),
                // with label filters the likelier miss is the filters, not the name: no name suggestions then
                () -> labels.isEmpty() ? suggestions.forMissing(service, metric, call.principal(), onlySource)
                        : " Ask again without labels to see whether the filters are what matched nothing.");
        // a label no series carries groups nothing: PromQL quietly returns one group with labels {}
        List<String> absent = groupBy.stream().filter(label -> !found.isEmpty() && found.stream().noneMatch(f -> f.series().labels().containsKey(label)))
                .toList();
        if (!absent.isEmpty()) {
            String missing = "No series has the label" + (absent.size() == 1 ? " " : "s ") + String.join(", ", absent)
                    + ", so the answer is not split by " + (absent.size() == 1 ? "it" : "them") + "; the series' labels show what there is"
                    + " to group by.";
            note = Optional.of(note.map(n -> n + " " + missing).orElse(missing));
        }
        // a window longer than the backend's retention: say where the data starts, or a 7d answer reads as 7 days of it
        long earliest = found.stream().filter(f -> f.series().size() > 0).mapToLong(f -> f.series().timeAt(0)).min().orElse(Long.MAX_VALUE);
        long slack = Math.max(2 * ran.toMillis(), duration.toMillis() / 20);
        if (earliest != Long.MAX_VALUE && earliest - range.start().toEpochMilli() > slack) {
            String starts = "The data starts at " + Instant.ofEpochMilli(earliest) + ", "
                    + roughly(Duration.ofMillis(earliest - range.start().toEpochMilli()))
                    + " after the window's start: the sources hold nothing earlier (no data, not zero).";
            note = Optional.of(note.map(n -> n + " " + starts).orElse(starts));
        }
        if (!batch.warningEntries().isEmpty()) {
            String warned = "A source warned alongside its answer (see backendWarnings): its series may be incomplete or "
                    + "approximate, for example when a query frontend could not reach every store.";
            note = Optional.of(note.map(n -> n + " " + warned).orElse(warned));
        }
        Optional<String> leftOut = batch.leftOutNote();
        if (leftOut.isPresent()) {
            note = Optional.of(note.map(n -> n + " " + leftOut.get()).orElse(leftOut.get()));
        }
        if (!ran.equals(step)) {
            String widened = "The source widened the step from " + Durations.format(step) + " to " + Durations.format(ran)
                    + " (it returns a limited number of points per series); ask for a shorter duration for finer points.";
            note = Optional.of(note.map(n -> n + " " + widened).orElse(widened));
        }
        if (!suggestions.warned().isEmpty()) {
            // what the discovery behind the name suggestions said its list lacks, beside the series' own warnings of the same
            // source: one backendWarnings, which replaces the one the batch wrote (JsonObjectBuilder.add keeps its place)
            batch.warned().addAll(suggestions.warned()).writeTo(result);
        }
        note.ifPresent(n -> result.add("note", n));
        return ToolResult.structured(result.build());
    }

    /** The step the backend answered at: the smallest gap between two points of any series, if one has two. */
    static Optional<Duration> stepThatRan(List<Series> series) {
        long smallest = Long.MAX_VALUE;
        for (Series s : series) {
            for (int i = 1; i < s.size(); i++) {
                long gap = s.timeAt(i) - s.timeAt(i - 1);
                if (gap > 0 && gap < smallest) {
                    smallest = gap;
                }
            }
        }
        return smallest == Long.MAX_VALUE ? Optional.empty() : Optional.of(Duration.ofMillis(smallest));
    }

    private static Optional<String> note(MetricBatch batch, Optional<String> onlySource, String service, String metric,
            Duration duration, String resolvedLabel, int total, int limit, boolean filtered, Optional<String> noneOfTheCallersScores,
            Supplier<String> didYouMean, Supplier<String> metricSuggestion) {
        if (batch.noSource()) {
            return Optional.of(onlySource.isPresent()
                    ? "Source '" + onlySource.get() + "' does not exist, is not connected, or cannot answer metric queries; call list_sources."
                    : "No connected source can answer metric queries. An operator adds a prometheus source (PROMETHEUS_URL or the "
                            + "sources file); list_sources shows what exists.");
        }
        if (batch.answers().isEmpty()) {
            return Optional.of("Every metrics source failed (see failedSources); no data is shown rather than a guess. Retry later "
                    + "if the failures are timeouts or unavailability.");
        }
        String partial = batch.partial() ? " Some sources failed (see failedSources): what they hold is missing." : "";
        if (total == 0 && noneOfTheCallersScores.isPresent()) {
            return Optional.of(noneOfTheCallersScores.get() + partial);
        }
        if (resolvedLabel == null) {
            return Optional.of("No metrics source knows a service named '" + service + "' (none of its service labels has this "
                    + "value)." + didYouMean.get() + " list_services shows every name and the sources that know it." + partial);
        }
        if (total == 0) {
            return Optional.of("'" + service + "' exists (label " + resolvedLabel + ") but has no series for " + metric + " in the last "
                    + Durations.format(duration) + (filtered ? ": it may not export this metric, or the label filters match nothing."
                            : ".")
                    + metricSuggestion.get() + partial);
        }
        if (total > limit) {
            return Optional.of(total + " series matched; showing the " + limit + " with the highest average. Narrow with labels, "
                    + "aggregate with fewer groupBy labels, or raise limit." + partial);
        }
        return partial.isEmpty() ? Optional.empty() : Optional.of(partial.strip());
    }

    /** {@code 3d 4h}, {@code 5h 20m} or {@code 45m}: a gap as a reader takes it in. */
    static String roughly(Duration d) {
        long minutes = d.toMinutes();
        if (minutes >= 24 * 60) {
            return minutes / (24 * 60) + "d " + minutes % (24 * 60) / 60 + "h";
        }
        return minutes >= 60 ? minutes / 60 + "h " + minutes % 60 + "m" : minutes + "m";
    }

    /** The default resolution: about {@value #TARGET_POINTS} points over the window, whole seconds, at least 15 s. */
    static Duration defaultStep(Duration window) {
        long seconds = (window.toSeconds() + TARGET_POINTS - 1) / TARGET_POINTS;
        return Duration.ofSeconds(Math.max(MIN_DEFAULT_STEP.toSeconds(), seconds));
    }
}
