package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.anomaly.AnomalyFinding;
import dev.omcp.core.analysis.anomaly.AnomalyDetector;
import dev.omcp.core.analysis.health.HealthEvaluator;
import dev.omcp.core.analysis.health.HealthReport;
import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.core.analysis.health.HealthStatus;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code get_service_health}: the health of one service from its error rate, p99 latency, request
 * rate, CPU and memory, all read from every metrics source in one parallel batch, scored against the
 * health thresholds and the anomaly detector, with the signals and anomalies that drove the status
 * (spec 2.11: {@code .catalog}). Detected scores go to the anomaly history.
 */
public final class ServiceHealthTool extends ObservabilityTool {
    static final String NAME = "get_service_health";
    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Get service health",
            "Judges one service now: healthy, degraded, critical or unknown, with a 0-100 score. It reads the error rate, "
                    + "p99 latency, request rate (a drop against the usual traffic), CPU and memory (as a share of the "
                    + "containers' limits) from every metrics source at once, compares them with the health thresholds and "
                    + "checks each for an anomaly against the hour (or four windows) before the window, or from 2h on the same "
                    + "time of the two previous days. The answer lists every signal with its "
                    + "value and status, the `drivers` (why it is not healthy), the anomalies found, and the signals that "
                    + "returned no data (never counted as zero). Each names its `signal` (the health-threshold key: cpu and "
                    + "memory are shares of the limits here, request_rate_drop the share of traffic lost) and its `metric`, the "
                    + "query_metrics metric it was read from (cpu_utilization, memory_utilization, request_rate, error_rate, "
                    + "latency_p99; latency in seconds there). Use it first when asked whether a service is OK. Next: "
                    + "detect_anomalies to find which other services deviate and which is the likely root cause, "
                    + "query_metrics with a signal's `metric` to read it in detail (not its `signal`: query_metrics' cpu and "
                    + "memory are cores and bytes), query_logs for its errors.",
            Schemas.object()
                    .required("service", Schemas.service("The service, as list_services names it (may contain slashes)."))
                    .property("window", Schemas.duration("The recent stretch to judge (2m to 1d); the baseline is the hour (or four "
                            + "windows) before it, and from 2h on the same time of the two previous days when the source "
                            + "keeps them (the daily curve is then no anomaly).", "15m", "5m, 15m, 1h, 1d"))
                    .property("source", Schemas.source("Only ask this metrics source (a name from list_sources)."))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("service", OutputFields.type("string"))
                    .add("status", Jsonp.object().add("type", "string")
                            .add("enum", Jsonp.array().add("healthy").add("degraded").add("critical").add("unknown")))
                    .add("score", OutputFields.type("number").add("description", "0-100, weighted over the signals that returned "
                            + "data; absent when status is unknown."))
                    .add("signals", OutputFields.type("array").add("description", "Each scored signal: value, unit, status, score, "
                            + "weight, thresholds, source, reason.").add("items", signalEntry()))
                    .add("missing", OutputFields.type("array").add("description", "Signals without data, with the reason.")
                            .add("items", namedSignal().add("properties", signalNames()
                                    .add("reason", OutputFields.type("string").add("description", "Why it has no data.")))))
                    .add("drivers", OutputFields.type("array").add("description", "Why the status is worse than healthy.")
                            .add("items", OutputFields.type("string")))
                    .add("anomalies", OutputFields.type("array").add("description", "Anomalous signals with onset, kind and score "
                            + "(the detector's verdict on the metric's series, in the metric's unit).")
                            .add("items", namedSignal().add("properties", signalNames()
                                    .add("labels", OutputFields.labels())
                                    .add("status", OutputFields.type("string"))
                                    .add("anomalous", OutputFields.type("boolean"))
                                    .add("score", OutputFields.type("number").add("description", "How far from the baseline, in "
                                            + "robust standard deviations."))
                                    .add("direction", OutputFields.type("string"))
                                    .add("onset", OutputFields.type("string"))
                                    .add("kind", OutputFields.type("string"))
                                    .add("evidence", AnomalyFinding.evidenceSchema())
                                    .add("note", OutputFields.type("string")))))
                    .add("window", OutputFields.type("string"))
                    .add("from", OutputFields.type("string"))
                    .add("to", OutputFields.type("string"))
                    .add("history", OutputFields.recordedHistory())
                    .add("catalog", ServiceCatalog.schema()),
                    List.of("service", "status", "signals", "missing", "drivers", "anomalies", "note", "sources", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    /** An entry that names a signal: both names are always there. */
    private static JsonObjectBuilder namedSignal() {
        return OutputFields.type("object").add("required", Jsonp.array().add("signal").add("metric"));
    }

    private static JsonObjectBuilder signalNames() {
        JsonArrayBuilder signals = Jsonp.array();
        JsonArrayBuilder metrics = Jsonp.array();
        for (HealthSignal s : HealthSignal.values()) {
            signals.add(s.wireName());
            metrics.add(s.metric());
        }
        return Jsonp.object()
                .add("signal", OutputFields.type("string").add("enum", signals).add("description", "The signal, as the health "
                        + "thresholds name it."))
                .add("metric", OutputFields.type("string").add("enum", metrics).add("description", "The query_metrics metric "
                        + "the signal was read from; call query_metrics with it (not with `signal`) to read the same measure."));
    }

    private static JsonObjectBuilder signalEntry() {
        return namedSignal().add("properties", signalNames()
                .add("value", OutputFields.type("number").add("description", "The current value, in `unit` (for request_rate_drop "
                        + "the current request rate); absent when the p99 is above the largest histogram bucket."))
                .add("aboveLargestBucket", OutputFields.type("boolean").add("description", "latency_p99 only, and only when true: "
                        + "the backend reported the p99 as +Inf, above the largest histogram bucket, too high to measure (judged "
                        + "critical)."))
                .add("unit", OutputFields.type("string").add("description", "ratio (0..1), ms or requests/s."))
                .add("drop", OutputFields.type("number").add("description", "request_rate_drop only: the share of the usual "
                        + "traffic lost, 0..1, which the thresholds apply to."))
                .add("status", OutputFields.type("string"))
                .add("score", OutputFields.type("number"))
                .add("weight", OutputFields.type("number"))
                .add("thresholds", OutputFields.type("object").add("properties", Jsonp.object()
                        .add("degraded", OutputFields.type("number")).add("critical", OutputFields.type("number"))))
                .add("source", OutputFields.type("string"))
                .add("reason", OutputFields.type("string")));
    }

    public ServiceHealthTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String service = args.string("service");
        Optional<String> onlySource = args.optionalString("source");
        Instant now = toolkit.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        AnalysisWindow window = AnalysisWindow.ending(now, args.durationCheckedByTool("window", "15m"), "window");
        HealthThresholds thresholds = toolkit.thresholds();
        List<HealthSignal> signals = new ArrayList<>();
        List<MetricBatch.Request> requests = new ArrayList<>();
        for (HealthSignal signal : HealthSignal.values()) {
            if (thresholds.of(signal).isPresent()) {
                signals.add(signal);
                requests.add(new MetricBatch.Request(service, HealthReadings.metricOf(signal)));
            }
        }

        SourceArgument.check(toolkit.sources(), onlySource, MetricsCapability.class, "metric queries", call.principal());
        List<Bound<MetricsCapability>> bound = toolkit.sources().with(MetricsCapability.class, call.principal(),
                onlySource.map(Set::of));
        MetricBatch batch = MetricBatch.fetch(toolkit, bound, requests,
                new MetricBatch.Shape(window.range(), window.step(), List.of(), Map.of(), call.principal().tenant()));
        AnomalyScan.Verdicts verdicts = AnomalyScan.judge(batch, window, AnomalyDetector.DEFAULT_SENSITIVITY);
        HealthReadings.Inputs inputs = HealthReadings.from(service, signals, batch, verdicts.verdicts(), window);
        HealthReport report = new HealthEvaluator(thresholds).evaluate(service, inputs.readings(), inputs.missing(), inputs.anomalies());
        int recorded = AnomalyScan.record(toolkit.history(), verdicts.verdicts(), call.principal().tenant(), now);

        JsonObjectBuilder result = Jsonp.provider().createObjectBuilder(Figures.roundAll(report.toJson()).asJsonObject())
                .add("window", Durations.format(window.window()))
                .add("from", window.range().start().toString())
                .add("to", window.range().end().toString())
                .add("history", history(toolkit.history(), recorded));
        toolkit.catalog().entry(service).ifPresent(entry -> result.add("catalog", entry));
        batch.writeTo(result);
        result.add("note", note(report, batch, onlySource, () -> new ServiceNameSuggestions(toolkit).didYouMean(service, call.principal())));
        return ToolResult.structured(result.build());
    }

    private static String note(HealthReport report, MetricBatch batch, Optional<String> onlySource, Supplier<String> didYouMean) {
        StringBuilder note = new StringBuilder(report.note());
        if (!report.note().endsWith(".")) {
            note.append('.');
        }
        if (batch.noSource()) {
            note.append(onlySource.isPresent()
                    ? " Source '" + onlySource.get() + "' does not exist, is not connected, or cannot answer metric queries; call list_sources."
                    : " No connected source can answer metric queries: an operator adds a prometheus source (PROMETHEUS_URL or the "
                            + "sources file).");
        } else if (report.status() == HealthStatus.UNKNOWN && batch.answers().stream().allMatch(a -> a.result().resolvedLabel().isEmpty())
                && !batch.answers().isEmpty()) {
            note.append(" No metrics source knows this service: call list_services for the exact names.").append(didYouMean.get());
        }
        if (batch.partial()) {
            note.append(" Some sources failed (see failedSources); their signals are missing, not zero.");
        }
        batch.leftOutNote().ifPresent(n -> note.append(' ').append(n));
        return note.toString();
    }

    /** What this call recorded in the anomaly history, and which setting keeps scores beyond the last hour. */
    static JsonObjectBuilder history(AnomalyHistory history, int recorded) {
        JsonObjectBuilder out = Jsonp.object().add("recorded", recorded)
                .add("inMemory", Durations.format(history.limits().retention()))
                .add("remoteWrite", history.remoteSinkConfigured());
        if (!history.remoteSinkConfigured()) {
            out.add("note", "Scores are kept in memory for the last " + Durations.format(history.limits().retention())
                    + " (get_anomaly_history reads them); set OMCP_ANOMALY_HISTORY_REMOTE_WRITE to keep them in a "
                    + "Prometheus-compatible store.");
        }
        return out;
    }
}
