package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryQuery;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.core.analysis.history.HistoryResult;
import dev.omcp.core.analysis.postmortem.ContributingSignal;
import dev.omcp.ports.anomaly.AnomalyScoreSample;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * {@code get_anomaly_history}: the anomaly scores the gateway recorded for the caller's tenant in a
 * recent window (in memory, last hour), raw rows oldest first plus a per-signal summary. Scores are
 * recorded by {@code get_service_health} and {@code detect_anomalies}; nothing here asks a backend.
 */
public final class GetAnomalyHistoryTool extends ObservabilityTool {
    static final String NAME = "get_anomaly_history";
    /**
     * A signal as the history records it: a curated name or the raw metric detect_anomalies judged,
     * OpenTelemetry's '.', '-' and '/' included, as long as the history keeps a name.
     */
    static final String SIGNAL_PATTERN = "^[A-Za-z0-9_:./-]{1," + AnomalyScoreSample.MAX_NAME_LENGTH + "}$";
    static final String REMOTE_WRITE_VARIABLE = "OMCP_ANOMALY_HISTORY_REMOTE_WRITE";

    private final Toolkit toolkit;
    private final ToolDefinition definition;

    public GetAnomalyHistoryTool(Toolkit toolkit) {
        this.toolkit = toolkit;
        this.definition = definition(toolkit.history().limits().retention());
    }

    /** Examples of windows the history can answer: a few shorter than it keeps, and what it keeps. */
    static String examples(Duration retention) {
        List<String> examples = new java.util.ArrayList<>();
        for (Duration d : List.of(Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofMinutes(15))) {
            if (d.compareTo(retention) < 0) {
                examples.add(Durations.format(d));
            }
        }
        examples.add(Durations.format(retention));
        return String.join(", ", examples);
    }

    private static ToolDefinition definition(Duration retention) {
        String kept = Durations.format(retention);
        return new ToolDefinition(
                NAME,
                "Get anomaly history",
                "Lists the anomaly scores this gateway recorded over the last " + kept + " (robust sigmas; each row says whether "
                        + "the verdict was an anomaly, of which kind: spike, step, ramp, seasonal-deviation, and when it began: "
                        + "onset), oldest first by judging time, with a "
                        + "per-signal summary (samples, anomalies, mean and peak score). Scores are recorded whenever "
                        + "get_service_health or detect_anomalies judge a service, so call one of those first if nothing is "
                        + "recorded. Use it to see when a signal started to move and whether it is still moving. Next: query_metrics "
                        + "on a signal that moved, or generate_postmortem, which builds its timeline from the same history.",
                Schemas.object()
                        .property("service", Schemas.service("Only this service. A bare name (payments) also finds scores recorded for it in a namespace (shop/payments); each row says which."))
                        .property("signal", Jsonp.object().add("type", "string").add("pattern", SIGNAL_PATTERN)
                                .add("description", "Only this signal, for example latency_p99, error_rate or a metric name "
                                        + "detect_anomalies judged. Names longer than " + AnomalyScoreSample.MAX_NAME_LENGTH
                                        + " characters are judged but not recorded.").build())
                        .property("window", Schemas.duration("How far back from now; at most " + kept + ", the in-memory history.",
                                kept, examples(retention)))
                        .property("limit", Schemas.integer("The most rows to return; the newest are kept.", 1, HistoryQuery.MAX_LIMIT,
                                HistoryQuery.DEFAULT_LIMIT))
                        .property("anomalousOnly", Schemas.bool("Only rows whose verdict was an anomaly.", false))
                        .build(),
                Optional.of(Schemas.output(Jsonp.object()
                        .add("window", Jsonp.object().add("type", "string"))
                        .add("from", Jsonp.object().add("type", "string"))
                        .add("to", Jsonp.object().add("type", "string"))
                        .add("rows", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                                .add("properties", Jsonp.object()
                                        .add("service", Jsonp.object().add("type", "string"))
                                        .add("signal", Jsonp.object().add("type", "string"))
                                        .add("at", Jsonp.object().add("type", "string"))
                                        .add("score", Jsonp.object().add("type", "number"))
                                        .add("anomalous", Jsonp.object().add("type", "boolean"))
                                        .add("kind", Jsonp.object().add("type", "string"))
                                        .add("onset", Jsonp.object().add("type", "string").add("description", "When the "
                                                + "deviation began (anomalies only), as the detector dated it; `at` is when it "
                                                + "was judged, so several rows of one incident share an onset."))
                                        .add("levelAboveLargestBucket", Jsonp.object().add("type", "boolean").add("description",
                                                "Only when true (anomalies only): the latency was above its histogram's largest "
                                                + "bucket (+Inf), too high to measure, so score is a lower bound.")))))
                        .add("signals", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                                .add("properties", Jsonp.object()
                                        .add("service", Jsonp.object().add("type", "string"))
                                        .add("signal", Jsonp.object().add("type", "string"))
                                        .add("samples", Jsonp.object().add("type", "integer"))
                                        .add("anomalousSamples", Jsonp.object().add("type", "integer"))
                                        .add("meanScore", Jsonp.object().add("type", "number"))
                                        .add("peakScore", Jsonp.object().add("type", "number"))
                                        .add("levelAboveLargestBucket", Jsonp.object().add("type", "boolean").add("description",
                                                "Only when true: some of its anomalies were above the histogram's largest bucket, "
                                                + "so meanScore and peakScore are lower bounds."))))
                                .add("description", "Per service and signal over the returned rows, strongest first: signals "
                                        + "above the largest histogram bucket (their scores are lower bounds), then highest mean "
                                        + "score."))
                        .add("truncated", Jsonp.object().add("type", "boolean"))
                        .add("retentionSeconds", Jsonp.object().add("type", "integer"))
                        .add("remoteSinkConfigured", Jsonp.object().add("type", "boolean"))
                        .add("note", Jsonp.object().add("type", "string")),
                        List.of("window", "from", "to", "rows", "signals", "truncated", "retentionSeconds", "remoteSinkConfigured"))),
                // reads the gateway's own memory, asks no backend
                ToolAnnotations.readOnlyLocal());
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        AnomalyHistory history = toolkit.history();
        Duration retention = history.limits().retention();
        String windowText = args.string("window", Durations.format(retention));
        Duration window = args.durationCheckedByTool("window", Durations.format(retention));
        if (window.compareTo(retention) > 0) {
            throw new InvalidArgumentException("window " + windowText + " is longer than the in-memory anomaly history ("
                    + Durations.format(retention) + "); ask for at most " + Durations.format(retention) + ". "
                    + olderScores(history, call.principal()));
        }
        Instant to = WindowEnd.endOfCurrentSecond(toolkit.clock());
        Instant from = to.minus(window);
        Optional<String> service = args.optionalString("service");
        Optional<String> signal = args.optionalString("signal");
        HistoryResult result = history.query(new HistoryQuery(call.principal().tenant(), service, signal, from, to,
                args.integer("limit", HistoryQuery.DEFAULT_LIMIT), args.bool("anomalousOnly", false)));

        JsonObjectBuilder out = Jsonp.object().add("window", windowText).add("from", from.toString()).add("to", to.toString());
        JsonObject rows = result.toJson();
        rows.forEach((key, value) -> {
            if (!key.equals("note")) {
                out.add(key, value);
            }
        });
        JsonArrayBuilder signals = Jsonp.array();
        for (ContributingSignal s : result.rows().isEmpty() ? List.<ContributingSignal>of() : ContributingSignal.fromHistory(result.rows())) {
            JsonObjectBuilder entry = Jsonp.object().add("service", s.service()).add("signal", s.signal()).add("samples", s.samples())
                    .add("anomalousSamples", s.anomalousSamples()).add("meanScore", round(s.meanScore()))
                    .add("peakScore", round(s.peakScore()));
            if (s.levelAboveLargestBucket()) {
                entry.add("levelAboveLargestBucket", true);
            }
            signals.add(entry);
        }
        out.add("signals", signals);
        boolean anomalousOnly = args.bool("anomalousOnly", false);
        boolean beforeTheStart = from.isBefore(history.recordingSince());
        // the start sentence below names the variable already: the generic advice would say it twice
        Optional<String> note = note(result, service, signal, anomalousOnly, windowText, history.remoteSinkConfigured() || beforeTheStart);
        Optional<String> elsewhere = Optional.empty();
        if (result.rows().isEmpty()) {
            elsewhere = recordedElsewhere(history, call.principal().tenant(), service, signal, anomalousOnly, from, to);
            if (elsewhere.isPresent()) {
                // "call one of them first" would be wrong advice: scores exist, just not under this question
                note = elsewhere;
            }
        }
        if (result.rows().isEmpty() && service.isPresent()) {
            String underItsName = recordedUnderItsName(history, call.principal().tenant(), service.get(), signal, from, to);
            Optional<String> unknown = new ServiceNameSuggestions(toolkit).unknownName(service.get(), call.principal());
            if (unknown.isPresent()) {
                // a name no source lists: "judge it first" would send the agent to judge a typo, so the name
                // it likely meant leads, and the advice to record scores is left out
                note = Optional.of(unknown.get() + " " + elsewhere.orElse(nothingRecorded(anomalousOnly, service, signal, windowText) + ".")
                        + underItsName);
            } else {
                note = note.map(n -> n + underItsName);
            }
        }
        Optional<String> overwritten = result.overwrittenUntil().map(until -> "Some of these series were judged more often than the "
                + "history keeps (" + history.limits().maxPointsPerSeries() + " scores per series): their scores up to " + until
                + " were overwritten, so rows up to then may be missing.");
        Optional<String> evicted = result.evictedUntil().map(until -> "The history holds at most " + history.limits().maxSeries()
                + " series and was full: series last judged up to " + until + " were dropped to make room for others, so their rows "
                + "may be missing.");
        Optional<String> beforeStart = beforeTheStart ? Optional.of(scoresBeforeTheStart(history, call.principal())) : Optional.empty();
        for (Optional<String> more : List.of(overwritten, evicted, beforeStart)) {
            note = note.isEmpty() ? more : note.map(n -> n + more.map(m -> " " + m).orElse(""));
        }
        note.ifPresent(n -> out.add("note", n));
        return ToolResult.structured(out.build());
    }

    /**
     * Where the scores before the in-memory history are and how an agent reads them: "the metrics
     * backend it writes to" alone names neither the metric nor the tool, and with no metrics source
     * there is nothing to read them through, which an operator must fix.
     */
    private String olderScores(AnomalyHistory history, Principal caller) {
        if (!history.remoteSinkConfigured()) {
            return "Older scores are not kept: an operator sets " + REMOTE_WRITE_VARIABLE + " to keep them in Prometheus.";
        }
        return whereSentScoresAre("Older scores", caller);
    }

    /**
     * The memory begins empty at every start: without this, an empty answer for a window reaching back before
     * it reads as "nothing was judged" (no anomalies while nobody watched) and rows since the start as "it began
     * to move then". With the sink the receiver holds the earlier scores; without it nothing does.
     */
    private String scoresBeforeTheStart(AnomalyHistory history, Principal caller) {
        Instant start = history.recordingSince().truncatedTo(ChronoUnit.SECONDS);
        String begins = "The gateway started at " + start + " and its in-memory history begins then: ";
        if (!history.remoteSinkConfigured()) {
            return begins + "nothing judged before was recorded, so this window shows nothing before " + start + "; an operator sets "
                    + REMOTE_WRITE_VARIABLE + " to keep the history across restarts.";
        }
        return begins + whereSentScoresAre("scores judged before", caller);
    }

    private String whereSentScoresAre(String which, Principal caller) {
        // the series names and labels the remote-write sink writes (omcp-adapters-storage, RemoteWriteEncoding)
        String sent = which + " were sent to the " + REMOTE_WRITE_VARIABLE + " receiver as the metrics omcp_anomaly_score and "
                + "omcp_anomaly_detected, labelled service and signal";
        if (toolkit.sources().with(MetricsCapability.class, caller).isEmpty()) {
            return sent + ", but no metrics source is configured to read them back: an operator adds that receiver as a "
                    + "Prometheus source. " + toolkit.howToAddSources();
        }
        return sent + ": query_metrics with metric omcp_anomaly_score, the service and groupBy [\"signal\"] reads them when that "
                + "receiver is also a metrics source.";
    }

    private static Optional<String> note(HistoryResult result, Optional<String> service, Optional<String> signal, boolean anomalousOnly,
            String window, boolean sinkConfigured) {
        if (!result.rows().isEmpty()) {
            return result.truncated()
                    ? Optional.of("More rows matched than the limit; the newest are returned. Narrow with service or signal, or "
                            + "raise limit.")
                    : Optional.empty();
        }
        return Optional.of(nothingRecorded(anomalousOnly, service, signal, window) + ". Scores are recorded when get_service_health or "
                + "detect_anomalies judge a service: call one of them first."
                + (sinkConfigured ? "" : " The gateway keeps scores in memory only (last hour); an operator sets "
                        + REMOTE_WRITE_VARIABLE + " to keep them durably in Prometheus."));
    }

    /** {@code No anomaly scores of payments (latency_p99) recorded in the last 1h}, without a full stop. */
    private static String nothingRecorded(boolean anomalousOnly, Optional<String> service, Optional<String> signal, String window) {
        return "No " + (anomalousOnly ? "anomalies" : "anomaly scores") + service.map(s -> " of " + s).orElse("")
                + signal.map(s -> " (" + s + ")").orElse("") + " recorded in the last " + window;
    }

    /**
     * When a question found nothing although scores were recorded: for another signal of the same
     * service, or before the window. Empty when nothing nearby was recorded either.
     */
    private static Optional<String> recordedElsewhere(AnomalyHistory history, String tenant, Optional<String> service,
            Optional<String> signal, boolean anomalousOnly, Instant from, Instant to) {
        String what = (anomalousOnly ? "No anomalies" : "No scores") + service.map(s -> " of " + s).orElse("")
                + signal.map(s -> " (" + s + ")").orElse("");
        if (signal.isPresent()) {
            List<String> others = history.query(new HistoryQuery(tenant, service, Optional.empty(), from, to, HistoryQuery.MAX_LIMIT, anomalousOnly))
                    .rows().stream().map(HistoryRow::signal).distinct().sorted().limit(12).toList();
            if (!others.isEmpty()) {
                return Optional.of(what + " in this window, but " + (anomalousOnly ? "anomalies" : "scores") + " of "
                        + (others.size() == 1 ? "signal " : "signals ") + String.join(", ", others) + " were recorded: ask for "
                        + (others.size() == 1 ? "it" : "one of them") + ", or leave signal out.");
            }
        }
        Instant retained = to.minus(history.limits().retention());
        if (from.isAfter(retained)) {
            List<HistoryRow> earlier = history.query(new HistoryQuery(tenant, service, signal, retained, from, HistoryQuery.MAX_LIMIT,
                    anomalousOnly)).rows();
            if (!earlier.isEmpty()) {
                return Optional.of(what + " in this window; the newest was recorded at " + earlier.getLast().at()
                        + ", before it: widen window (at most " + Durations.format(history.limits().retention()) + ").");
            }
        }
        return Optional.empty();
    }

    /**
     * For {@code shop/payments} with no scores: whether scores were recorded as {@code payments},
     * the name a run over every service records, and if so a sentence that says to ask for that.
     */
    private static String recordedUnderItsName(AnomalyHistory history, String tenant, String asked, Optional<String> signal,
            Instant from, Instant to) {
        int slash = asked.lastIndexOf('/');
        if (slash < 0 || slash == asked.length() - 1) {
            return "";
        }
        String name = asked.substring(slash + 1);
        // A bare name also answers with that name in other namespaces; only scores under the bare name count here.
        boolean recorded = history.query(new HistoryQuery(tenant, Optional.of(name), signal, from, to, HistoryQuery.MAX_LIMIT, false))
                .rows().stream().anyMatch(row -> row.service().equals(name));
        return recorded ? " Scores of '" + name + "' were recorded in this window: ask with service '" + name + "'." : "";
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
