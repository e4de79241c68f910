package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.core.analysis.blast.BlastRadius;
import dev.omcp.core.analysis.blast.BlastRadiusOptions;
import dev.omcp.core.analysis.blast.BlastRadiusWalker;
import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.core.analysis.history.HistoryQuery;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.core.analysis.postmortem.AnomalyEpisode;
import dev.omcp.core.analysis.postmortem.AnomalyEpisodes;
import dev.omcp.core.analysis.postmortem.ContributingSignal;
import dev.omcp.core.analysis.postmortem.LogHighlight;
import dev.omcp.core.analysis.postmortem.LogHighlightExtractor;
import dev.omcp.core.analysis.postmortem.LogRange;
import dev.omcp.core.analysis.postmortem.PostmortemBuilder;
import dev.omcp.core.analysis.postmortem.PostmortemInput;
import dev.omcp.core.analysis.postmortem.PostmortemMarkdown;
import dev.omcp.core.analysis.postmortem.PostmortemReport;
import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.core.analysis.postmortem.Situation;
import dev.omcp.core.analysis.postmortem.SourceFailure;
import dev.omcp.core.analysis.postmortem.SourceState;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.core.analysis.traces.TraceMergeResult;
import dev.omcp.core.analysis.traces.TraceQueryEcho;
import dev.omcp.core.redaction.Redactor;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.Topology;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code generate_postmortem} (spec 4.4): a post-mortem draft for a suspected root-cause service,
 * built from what the gateway really has: the blast radius walked over the merged topology, the
 * anomaly history of the service and everything in its blast radius, the related traces (fan-out
 * and merge as {@code query_traces} does) and log highlights extracted from the error and warning
 * lines of the window. The topology, traces and the two log searches run in parallel, each within
 * the toolkit's per-source timeout; the whole call answers within the toolkit's deadline even when a
 * connector ignores its timeout ({@link CallDeadline}).
 *
 * <p>Rendering: {@code markdown} (default) puts the markdown in {@code content[0].text} (through
 * the {@code OMCP_POSTMORTEM_TEMPLATE} template when one is readable, else the built-in layout) and
 * the JSON report in {@code structuredContent}; {@code json} gives the same report as JSON in both.
 * The section rules of the spec (no sink, no traces connector, topology down, no log lines) are
 * applied by {@link PostmortemBuilder} from the {@link Situation} this tool observes.
 */
public final class GeneratePostmortemTool extends ObservabilityTool {
    private static final Logger LOG = LoggerFactory.getLogger(GeneratePostmortemTool.class);
    static final String NAME = "generate_postmortem";
    /** spec 8: post-mortem window default 1h. */
    static final String DEFAULT_DURATION = "1h";
    /**
     * Related traces merged and ranked: every trace the sources return (each is asked for up to this
     * many anyway), so the report's counts are the window's, not a cap's; it lists the first 10 (spec 8).
     */
    static final int TRACE_LIMIT = PostmortemReport.RANKED_TRACES;
    /**
     * Log lines read per level and source (the builtin Loki connector's ceiling); highlights are
     * counted over these, and marked as lower bounds when a source had more.
     */
    static final int LOG_LINES_PER_LEVEL = 5000;
    /** The levels whose lines become highlights, most important first. */
    static final List<String> HIGHLIGHT_LEVELS = List.of("error", "warn");

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Generate post-mortem",
            "Drafts a post-mortem for a suspected root-cause service over a recent window: Synopsis (when the earliest anomaly began, which service "
                    + "in the report went wrong first, and any service outside it that deviated earlier); Anomaly timeline (up to 20 anomaly episodes of the service and everything in its blast "
                    + "radius, earliest onset first: repeated judgements of one deviation collapse into one row); Blast radius at "
                    + "peak (up to 30 affected resources); Contributing signals (top 10 by mean score, a latency above its "
                    + "histogram's largest bucket first, its score a lower bound); Related traces (up to 10, "
                    + "error traces called out); Log highlights (error and warning lines of the service, de-duplicated and "
                    + "counted, redacted); Suggested follow-ups. A section whose data is unavailable says why (no traces "
                    + "connector, topology down, nothing recorded); a section one of whose sources failed or timed out says so in "
                    + "place, naming it (partial: true and a note in JSON). `format: markdown` (default) returns the markdown as text and "
                    + "the report as structured JSON; `format: json` returns the same content as JSON. Anomaly scores come from "
                    + "earlier get_service_health and detect_anomalies calls; when none judged the service in the window, the "
                    + "report runs detect_anomalies itself first (with its defaults; not for a name no source lists, nor again "
                    + "for a service an earlier draft's detection could not score) and says so in `detection`. Use it once a "
                    + "root cause is suspected (after detect_anomalies and get_blast_radius); next, check the draft's claims "
                    + "with query_traces and query_logs before sharing it.",
            Schemas.object()
                    .required("service", Schemas.service("The suspected root-cause service, as list_services names it."))
                    .property("duration", Schemas.duration("The incident window, ending now.", DEFAULT_DURATION))
                    .property("format", Schemas.enumOf("markdown: the draft as markdown text plus the JSON report; json: the same "
                            + "content as JSON.", List.of("markdown", "json"), "markdown"))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("service", Jsonp.object().add("type", "string"))
                    .add("window", Jsonp.object().add("type", "string"))
                    .add("from", Jsonp.object().add("type", "string"))
                    .add("to", Jsonp.object().add("type", "string"))
                    .add("tenant", Jsonp.object().add("type", "string"))
                    .add("notice", Jsonp.object().add("type", "string").add("description", "Present when nothing at all was found."))
                    .add("sections", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                            .add("description", "The section keys in markdown order."))
                    .add("synopsis", Jsonp.object().add("type", "string"))
                    .add("timeline", Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                            .add("episodes", Jsonp.object().add("type", "array").add("description", "Anomaly episodes, earliest onset "
                                    + "first: service, signal, measure, onset, onsetKnown (false: first recorded time), lastSeen, "
                                    + "peakScore, kind, levelAboveLargestBucket, judgments.").add("items", Jsonp.object().add("type", "object")
                                    .add("properties", Jsonp.object()
                                            .add("service", Jsonp.object().add("type", "string"))
                                            .add("signal", Jsonp.object().add("type", "string"))
                                            .add("measure", Jsonp.object().add("type", "string"))
                                            .add("onset", Jsonp.object().add("type", "string"))
                                            .add("onsetKnown", Jsonp.object().add("type", "boolean"))
                                            .add("lastSeen", Jsonp.object().add("type", "string"))
                                            .add("peakScore", Jsonp.object().add("type", "number"))
                                            .add("kind", Jsonp.object().add("type", "string"))
                                            .add("levelAboveLargestBucket", bool("Only when true: the peak judgement found the "
                                                    + "latency above its histogram's largest bucket (+Inf), so peakScore is a lower "
                                                    + "bound."))
                                            .add("judgments", Jsonp.object().add("type", "integer")))))
                            .add("totalEpisodes", Jsonp.object().add("type", "integer"))
                            .add("omittedEpisodes", Jsonp.object().add("type", "integer"))
                            .add("scoresRecorded", Jsonp.object().add("type", "integer"))
                            .add("anomalousScores", Jsonp.object().add("type", "integer"))
                            .add("onsetToleranceSeconds", Jsonp.object().add("type", "integer"))
                            .add("partial", Jsonp.object().add("type", "boolean").add("description", "The scope (the service and "
                                    + "its blast radius) is incomplete because a topology source failed; note says which."))
                            .add("note", Jsonp.object().add("type", "string"))
                            .add("outsideScope", Jsonp.object().add("type", "array").add("description", "Services outside the "
                                    + "report's scope (the service and its blast radius) with anomalies in the window, earliest onset "
                                    + "first, each by its earliest episode.").add("items", object(Jsonp.object()
                                    .add("service", string("The service."))
                                    .add("signal", string("The signal of its earliest episode."))
                                    .add("onset", string("When that episode began (or was first recorded, see onsetKnown)."))
                                    .add("onsetKnown", bool("false: onset is the first recorded time, the episode began then or "
                                            + "earlier."))
                                    .add("episodes", integer("How many anomaly episodes it had in the window."))
                                    .add("reachesService", bool("The report's service is in its blast radius; absent when the "
                                            + "topology cannot tell."))
                                    .add("reachesInScope", strings("Anomalous services of the report its blast radius holds; "
                                            + "absent when none.")))))))
                    .add("blastRadius", Jsonp.object().add("type", "object").add("description", "The resources the service's "
                            + "degradation reaches, walked over the merged topology; when included is false only partial and note.")
                            .add("properties", Jsonp.object()
                            .add("included", bool("false: omitted (no topology source, or none answered); note says why."))
                            .add("targets", strings("The resources the walk started from, matching the service (counted in "
                                    + "totalNodes)."))
                            .add("nodes", Jsonp.object().add("type", "array").add("description", "Up to 30 affected resources, "
                                    + "nearest first, targets included.").add("items", object(Jsonp.object()
                                    .add("id", string("kind/namespace/name."))
                                    .add("kind", string("The resource kind."))
                                    .add("hops", integer("Steps from the nearest target (0: a target)."))
                                    .add("impact", string("How it is reached: target, owned by ..., calls ..., part of ..."))
                                    .add("host", string("The node it runs on; absent when it runs on none."))
                                    .add("ownerRoot", string("The top of its ownership chain; absent when it has none.")))))
                            .add("totalNodes", integer("All affected resources found, targets included, before any cap."))
                            .add("truncated", bool("The walk itself stopped at its cap: more may be affected."))
                            .add("hosts", counts("Affected resources per host (node)."))
                            .add("owners", counts("Affected resources per ownership root."))
                            .add("unresolved", strings("Targets the topology does not know."))
                            .add("didYouMean", strings("When the topology does not know the service as named: its names the "
                                    + "service most likely is (equal but for case, or a typo away; several only when they differ only "
                                    + "in case, at most " + PostmortemReport.MAX_DID_YOU_MEAN + ", the note counting the rest). Not "
                                    + "walked, as names are matched exactly: get_blast_radius walks from one."))
                            .add("partial", bool("A topology source failed or timed out: the radius is missing what it "
                                    + "reports, counts are lower bounds."))
                            .add("note", string("Why it is omitted or incomplete, or which topology name an unresolved "
                                    + "service most likely is."))))
                    .add("signals", Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                            .add("items", Jsonp.object().add("type", "array").add("description", "Up to 10 signals of the scope, "
                                    + "strongest first: those above the largest histogram bucket (scores are lower bounds), then "
                                    + "highest mean anomaly score.").add("items", object(Jsonp.object()
                                    .add("service", string("The service."))
                                    .add("signal", string("The signal, as the anomaly history records it."))
                                    .add("measure", string("What it measures, for curated metrics (cores used, share of CPU "
                                            + "limit...)."))
                                    .add("meanScore", number("Mean anomaly score over the window."))
                                    .add("peakScore", number("Highest anomaly score."))
                                    .add("samples", integer("Scores recorded."))
                                    .add("anomalousSamples", integer("Of them, anomalies."))
                                    .add("levelAboveLargestBucket", bool("Only when true: some of its anomalies were above the "
                                            + "histogram's largest bucket (+Inf), so meanScore and peakScore are lower bounds.")))))
                            .add("total", integer("How many signals contributed, not just listed."))))
                    .add("traces", Jsonp.object().add("type", "object").add("description", "The related traces; when included is "
                            + "false only partial and note.").add("properties", Jsonp.object()
                            .add("included", bool("false: omitted (no traces source, or every one failed); note says why."))
                            .add("items", Jsonp.object().add("type", "array").add("description", "Up to 10 traces, errors first, then "
                                    + "slowest.").add("items", object(Jsonp.object()
                                    .add("traceId", string("The trace id."))
                                    .add("rootName", string("The root span's name."))
                                    .add("rootService", string("The root span's service."))
                                    .add("durationMs", Jsonp.object().add("type", Jsonp.array().add("number").add("null"))
                                            .add("description", "Duration in milliseconds; null when the source gave no valid one."))
                                    .add("spanCount", integer("Spans in the trace."))
                                    .add("hasError", bool("Some span has an error.")))))
                            .add("total", integer("Related traces found in the window, not just listed."))
                            .add("totalIsLowerBound", bool("The search reached its limit of ranked traces: the window may hold "
                                    + "more than total."))
                            .add("errorCount", integer("How many of the found traces have an error."))
                            .add("partial", bool("A traces source failed or timed out: traces only it holds are missing."))
                            .add("note", string("Why it is omitted or incomplete."))))
                    .add("logSearch", Jsonp.object().add("type", "object").add("description", "How the log highlights were "
                            + "searched (present when a logs source is configured).").add("properties", Jsonp.object()
                            .add("from", Jsonp.object().add("type", "string"))
                            .add("to", Jsonp.object().add("type", "string"))
                            .add("partial", Jsonp.object().add("type", "boolean"))
                            .add("note", Jsonp.object().add("type", "string"))))
                    .add("logHighlights", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("firstSeen", Jsonp.object().add("type", "string"))
                                    .add("line", Jsonp.object().add("type", "string"))
                                    .add("occurrences", Jsonp.object().add("type", "integer"))
                                    .add("countIsLowerBound", Jsonp.object().add("type", "boolean")
                                            .add("description", "The source returned only its newest lines: more, older ones may exist.")))))
                    .add("followUps", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string")))
                    .add("failedSources", Jsonp.object().add("type", "array").add("items", object(Jsonp.object()
                            .add("source", string("The source."))
                            .add("signal", string("What was asked of it: topology, traces, logs, or metrics (the detection the "
                                    + "report ran itself, see detection)."))
                            .add("kind", string("timeout, unavailable, bad_query, unauthorized, bad_response or address_refused."))
                            .add("error", string("What went wrong."))
                            .add("query", string("For logs: the backend query (LogQL) the source was running when it failed or ran "
                                    + "out of time, redacted like the highlights; the error-line search's when both level searches "
                                    + "failed alike. Absent when the source failed before sending one or its connector does not "
                                    + "say.")))))
                    .add("detection", object(Jsonp.object()
                            .add("state", string("completed; earlier when a detection an earlier draft ran (at ranAt) judged "
                                    + "the service within the window and recorded no score for it (its metrics held too little to "
                                    + "judge), so none ran again and the counts are that detection's; skipped when no source lists "
                                    + "the service (judging would have scored only other services: see note for the name); or late "
                                    + "when the report's deadline came first (nothing it found is in the report)."))
                            .add("ranAt", string("When the detection ran: completed and earlier only."))
                            .add("window", string("The stretch judged: the report's window, at least 15m and at most 1h."))
                            .add("services", integer("Services judged, the report's own first: one more than the listed ones "
                                    + "judged when the metrics sources do not list it by that name."))
                            .add("servicesListed", integer("Services the metrics sources list."))
                            .add("anomalousServices", integer("Services found anomalous."))
                            .add("scoresRecorded", integer("Scores written to the anomaly history, which the report is built from."))
                            .add("partial", bool("Some metrics query failed, or the detection was late."))
                            .add("note", string("What ran and why, in one sentence; a second when points a metrics source "
                                    + "answered outside the judged window were left out (backendWarnings says which source).")))
                            .add("description", "Present when no detection had recorded scores for the service in the window, so "
                                    + "the report ran detect_anomalies itself (its defaults, the report's service first) and "
                                    + "recorded the scores before building the timeline and signals; or, with state earlier or "
                                    + "skipped, why it did not."))
                    .add("topologyGaps", TopologySnapshot.gapsSchema())
                    .add("contacts", Jsonp.object().add("type", "object").add("description", "Who answers for the service and the "
                            + "services its blast radius reaches, from the service catalog (owner and onCall), per service; absent "
                            + "without a catalog entry.").add("additionalProperties", Jsonp.object().add("type", "string"))),
                    List.of("service", "window", "from", "to", "tenant", "sections", "synopsis", "timeline", "blastRadius", "signals",
                            "traces", "followUps", "sources", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private static JsonObjectBuilder typed(String type, String description) {
        return Jsonp.object().add("type", type).add("description", description);
    }

    private static JsonObjectBuilder string(String description) {
        return typed("string", description);
    }

    private static JsonObjectBuilder integer(String description) {
        return typed("integer", description);
    }

    private static JsonObjectBuilder number(String description) {
        return typed("number", description);
    }

    private static JsonObjectBuilder bool(String description) {
        return typed("boolean", description);
    }

    private static JsonObjectBuilder strings(String description) {
        return typed("array", description).add("items", Jsonp.object().add("type", "string"));
    }

    /** An object of names to counts. */
    private static JsonObjectBuilder counts(String description) {
        return typed("object", description).add("additionalProperties", Jsonp.object().add("type", "integer"));
    }

    private static JsonObjectBuilder object(JsonObjectBuilder properties) {
        return Jsonp.object().add("type", "object").add("properties", properties);
    }

    private final Toolkit toolkit;
    private final ServiceEntitlement entitlement;
    private final PostmortemBuilder builder = new PostmortemBuilder(CuratedMetricNames::measure);
    private final BlastRadiusWalker walker = new BlastRadiusWalker();
    private final LogHighlightExtractor extractor = new LogHighlightExtractor();

    /** A post-mortem tool with no Product bindings to check (see {@link ServiceEntitlement#noProductBindings()}). */
    public GeneratePostmortemTool(Toolkit toolkit) {
        this(toolkit, ServiceEntitlement.noProductBindings());
    }

    public GeneratePostmortemTool(Toolkit toolkit, ServiceEntitlement entitlement) {
        this.toolkit = toolkit;
        this.entitlement = entitlement;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    /**
     * One failed source of one kind of data, for {@code failedSources}; {@code query} is the backend
     * query it was running, when its connector said (logs only).
     */
    private record Failed(String source, String signal, String kind, String error, Optional<String> query) {
        Failed(String source, String signal, String kind, String error) {
            this(source, signal, kind, error, Optional.empty());
        }
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String service = args.string("service");
        if (entitlement.check(call.principal(), NAME, service) instanceof ServiceEntitlement.Decision.NotEntitled refused) {
            return ToolResult.error(NAME + ": not entitled to " + service + ": " + refused.reason());
        }
        String window = args.string("duration", DEFAULT_DURATION);
        Duration duration = args.duration("duration", DEFAULT_DURATION);
        boolean json = args.string("format", "markdown").equals("json");
        Principal principal = call.principal();
        Instant to = WindowEnd.endOfCurrentSecond(toolkit.clock());
        Instant from = to.minus(duration);
        TimeRange range = new TimeRange(from, to);

        CallDeadline deadline = CallDeadline.startingNow(gatheringBudget(toolkit.deadline()));
        List<HistoryRow> recorded = history(principal.tenant(), from, to);
        LogRange logRange = LogRange.within(from, to, AnomalyEpisodes.of(recorded.stream()
                .filter(r -> AnomalyHistory.answers(service, r.service())).toList()).stream().findFirst().map(AnomalyEpisode::onset));
        // no detection judged the service in the window (a draft asked for first, or long after the last
        // detect_anomalies): judge now, beside the gathering, or the timeline would be empty mid-incident;
        // unless an earlier draft's detection judged it in the window and found too little of it to score
        boolean unscored = recorded.stream().noneMatch(r -> AnomalyHistory.answers(service, r.service()))
                && !toolkit.sources().with(MetricsCapability.class, principal).isEmpty();
        Optional<PostmortemDetection.Outcome> earlier = unscored
                ? PostmortemDetection.earlier(toolkit, principal, service, from, to) : Optional.empty();
        boolean judgeNow = unscored && earlier.isEmpty();
        Gatherings g = gather(principal, service, window, range, new TimeRange(logRange.from(), logRange.to()), deadline,
                judgeNow ? Optional.of(new DetectionAsk(duration, to)) : Optional.empty());
        List<Failed> failed = new ArrayList<>();
        Set<String> answered = new LinkedHashSet<>();
        Optional<PostmortemDetection.Outcome> detection = g.detection().or(() -> earlier);
        detection.ifPresent(d -> {
            answered.addAll(d.answered());
            d.failures().forEach(f -> failed.add(new Failed(f.source(), "metrics", f.kind(), f.message())));
        });
        List<HistoryRow> scored = detection.filter(d -> d.completed() && d.scoresRecorded() > 0).isPresent()
                ? history(principal.tenant(), from, to) : recorded;

        // topology: the blast radius, or why it is missing
        TopologySnapshot topology = g.topology();
        topology.gathered().answers().forEach(a -> answered.add(a.source()));
        topology.gathered().failures().forEach(f -> failed.add(new Failed(f.source(), "topology", kind(f), f.message())));
        SourceState topologyState = stateOf(List.of(topology.gathered()));
        Optional<BlastRadius> blast = topology.graph().map(graph -> walker.walk(graph, List.of(service), BlastRadiusOptions.defaults()));
        // one service, one name: scores recorded under shop/payments and under payments are the same
        // service's, and the report's own service is named as the caller named it
        UnaryOperator<String> names = topology.graph().map(graph -> reportNames(graph, service)).orElse(UnaryOperator.identity());
        List<HistoryRow> history = scored.stream().map(r -> renamed(r, names)).toList();
        // metric labels are free-form (Payments in Prometheus, payments in the cluster): offer the topology's name
        List<String> topologyNames = blast.filter(b -> !b.unresolved().isEmpty())
                .map(b -> TopologyNameSuggestions.forName(topology.graph().orElseThrow(), service)).orElse(List.of());

        // traces, merged and ranked as query_traces does
        QueryTracesTool.Search traceSearch = g.traces();
        TraceMergeResult traces = traceSearch.merged();
        answered.addAll(traces.sources());
        traceSearch.gathered().failures().forEach(f -> failed.add(new Failed(f.source(), "traces", kind(f), f.message())));
        SourceState tracesState = stateOf(List.of(traceSearch.gathered()));

        LogFindings logs = logFindings(g.logs(), answered, failed);
        Set<String> scope = scope(service, blast, names);
        List<HistoryRow> timeline = history.stream().filter(r -> scope.contains(r.service())).toList();
        List<HistoryRow> outside = history.stream().filter(r -> !scope.contains(r.service())).toList();
        Map<String, List<String>> reachesInScope = new HashMap<>();
        // a service the topology does not know (a typo) is reached by nothing it can tell: "no path" would read as "unrelated"
        boolean serviceInTopology = blast.map(b -> b.unresolved().isEmpty()).orElse(false);
        Map<String, Boolean> reaches = topologyState.availability() == SourceState.Availability.AVAILABLE && serviceInTopology
                ? reachesService(topology.graph().orElseThrow(), service, outside, anomalousIn(timeline, service), reachesInScope, names)
                : Map.of();

        Situation situation = new Situation(toolkit.history().remoteSinkConfigured(), tracesState, topologyState, logs.state());
        Map<String, String> contacts = contacts(service, topologyState.answered() ? blast : Optional.empty(), names);
        PostmortemReport report = builder.build(new PostmortemInput(service, window, from, to, principal.tenant(), timeline, outside,
                reaches, topologyState.answered() ? blast : Optional.empty(), ContributingSignal.fromHistory(timeline), traces.traces(),
                logs.highlights(), logRange, situation, contacts, reachesInScope, topologyNames));

        JsonObjectBuilder structured = Jsonp.provider().createObjectBuilder(report.toJson());
        if (!contacts.isEmpty()) {
            JsonObjectBuilder byService = Jsonp.object();
            contacts.forEach(byService::add);
            structured.add("contacts", byService);
        }
        JsonArrayBuilder sources = Jsonp.array();
        answered.forEach(sources::add);
        detection.ifPresent(d -> structured.add("detection", d.toJson()));
        topology.writeGaps(structured);
        // the traces section comes before the log highlights, and so do its sources' warnings (redacted, as every
        // tool redacts what its sources say)
        WarnedSources traceWarnings = traceSearch.warned();
        // the detection's metrics last, as its note comes after the sections' warnings in the markdown
        WarnedSources metricWarnings = detection.map(PostmortemDetection.Outcome::warned).orElseGet(() -> WarnedSources.of(toolkit));
        WarnedSources.of(toolkit).addAll(traceWarnings).addAll(logs.warned()).addAll(metricWarnings).writeTo(structured);
        structured.add("sources", sources).add("partial", !failed.isEmpty());
        if (!failed.isEmpty()) {
            JsonArrayBuilder list = Jsonp.array();
            failed.forEach(f -> {
                JsonObjectBuilder entry = Jsonp.object().add("source", f.source()).add("signal", f.signal()).add("kind", f.kind())
                        .add("error", f.error());
                f.query().ifPresent(q -> entry.add("query", q));
                list.add(entry);
            });
            structured.add("failedSources", list);
        }
        // a draft for a typo would read as a quiet service: say that no source knows the name (asked
        // only when nothing was found, which a typo always gives, so a real draft costs no extra listing;
        // a detection skipped for the name has just heard every listing, so its names answer)
        Optional<String> unknown = Optional.empty();
        if (report.noSignalNotice().isPresent()) {
            Optional<PostmortemDetection.Outcome> skipped = detection.filter(PostmortemDetection.Outcome::skipped);
            unknown = skipped.isPresent() ? ServiceNameSuggestions.unknownName(service, skipped.get().namesListed())
                    : new ServiceNameSuggestions(toolkit).unknownName(service, principal);
        }
        unknown.ifPresent(u -> structured.add("note", u));
        JsonObject result = structured.build();
        if (json) {
            return ToolResult.structured(result);
        }
        return ToolResult.structured(result, markdown(report) + footnote(failed)
                + warnings("Related traces may be incomplete", "traces", traceWarnings)
                + warnings("Log highlights may be incomplete", "logs", logs.warned())
                + detection.map(d -> "\n> " + PostmortemMarkdown.text(d.note()) + "\n").orElse("")
                + warnings("The detection's metrics may be incomplete", "metrics", metricWarnings)
                + (topology.hasGaps() ? "\n> " + TopologySnapshot.GAPS_NOTE + "\n" : "")
                + unknown.map(u -> "\n> " + PostmortemMarkdown.text(u) + "\n").orElse(""));
    }

    /**
     * The log highlights, whether the logs sources could be asked, and what they said alongside
     * their answers (redacted like the highlights): a source that answered with a warning may have
     * returned only part of the lines the highlights are counted from.
     */
    private record LogFindings(List<LogHighlight> highlights, SourceState state, WarnedSources warned) {}

    /** Highlights from the error and warning lines of the window; notes which sources answered or failed. */
    private LogFindings logFindings(List<Gathered<LogResult>> byLevel, Set<String> answered, List<Failed> failed) {
        UnaryOperator<String> redact = toolkit.redactionEnabled() ? text -> toolkit.redactor().redactText(text).text() : UnaryOperator.identity();
        UnaryOperator<String> redactMessage = toolkit.redactionEnabled() ? messageRedaction(toolkit.redactor()) : UnaryOperator.identity();
        List<LogHighlightExtractor.Line> lines = new ArrayList<>();
        Map<String, Integer> reported = new HashMap<>();
        WarnedSources warned = WarnedSources.of(toolkit);
        for (int i = 0; i < HIGHLIGHT_LEVELS.size(); i++) {
            String level = HIGHLIGHT_LEVELS.get(i);
            Gathered<LogResult> logs = byLevel.get(i);
            for (Gathered.Answer<LogResult> a : logs.answers()) {
                answered.add(a.source());
                LogResult result = a.value() == null ? new LogResult(List.of(), false, "") : a.value();
                // a backend's warning may quote the query or a line: redacted as it is added, as the highlights beside it are
                warned.add(a.source(), result.warnings());
                for (LogEntry entry : result.entries()) {
                    lines.add(new LogHighlightExtractor.Line(entry.timestamp(), level, entry.line(), result.truncated()));
                }
            }
            for (Gathered.Failure f : logs.failures()) {
                // a plugin's query may quote anything, and so may a logs backend's refusal (the line it choked
                // on): both are redacted like the highlights beside them, as query_logs redacts its errors
                Optional<String> query = f.query().map(redact);
                String key = f.source() + "\u0000" + f.message();
                Integer entry = reported.get(key);
                if (entry == null) {
                    reported.put(key, failed.size());
                    failed.add(new Failed(f.source(), "logs", kind(f), redact.apply(f.message()), query));
                } else if (failed.get(entry).query().isEmpty() && query.isPresent()) {
                    // one entry when both levels failed alike; their searches differ only in the level, so one
                    // query shows what ran: the error search's, or the warning one's when only it was heard
                    Failed first = failed.get(entry);
                    failed.set(entry, new Failed(first.source(), first.signal(), first.kind(), first.error(), query));
                }
            }
        }
        SourceState state = stateOf(byLevel, redact);
        List<LogHighlight> highlights = extractor.extract(lines, HIGHLIGHT_LEVELS, redactMessage, PostmortemReport.MAX_LOG_HIGHLIGHTS);
        return new LogFindings(highlights, state, warned);
    }

    /**
     * Redacts a log message for a highlight, which shows at most {@link LogHighlightExtractor#MAX_MESSAGE_CHARS}
     * of it: only the start is examined ({@link Redactor#redactHead}), so a backend's
     * 10 MB line costs what 8 KB do. A message not examined whole ends with an ellipsis, as one cut for length.
     */
    static UnaryOperator<String> messageRedaction(Redactor redactor) {
        return text -> {
            Redactor.HeadRedaction head = redactor.redactHead(text, LogHighlightExtractor.MAX_MESSAGE_CHARS);
            return head.whole() ? head.text() : head.text() + "…";
        };
    }

    /**
     * What the sources of one section did, over one or more fan-outs to them (one per log level):
     * a source that failed alike in several is named once.
     */
    private static SourceState stateOf(List<? extends Gathered<?>> fanOuts) {
        return stateOf(fanOuts, UnaryOperator.identity());
    }

    /** @param message what each failure's message shows (the logs sources' are redacted) */
    private static SourceState stateOf(List<? extends Gathered<?>> fanOuts, UnaryOperator<String> message) {
        boolean configured = fanOuts.stream().anyMatch(g -> !g.noSource());
        boolean anyAnswered = fanOuts.stream().anyMatch(g -> !g.answers().isEmpty());
        List<SourceFailure> failures = fanOuts.stream().flatMap(g -> g.failures().stream())
                .map(f -> new SourceFailure(f.source(), f.kind() == FailureKind.TIMEOUT ? SourceFailure.Kind.TIMEOUT
                        : SourceFailure.Kind.ERROR, message.apply(f.message())))
                .distinct().toList();
        return SourceState.of(configured, anyAnswered, failures);
    }

    /** The caller's anomaly history of the window, every service. */
    private List<HistoryRow> history(String tenant, Instant from, Instant to) {
        return toolkit.history().query(new HistoryQuery(tenant, Optional.empty(), Optional.empty(), from, to, HistoryQuery.MAX_LIMIT,
                false)).rows();
    }

    /**
     * Who answers for the service and the services its blast radius reaches, as the service catalog
     * names them (spec 2.11: owner, onCall): the people to tell, rather than Kubernetes owners.
     */
    private Map<String, String> contacts(String service, Optional<BlastRadius> blast, UnaryOperator<String> names) {
        if (!toolkit.catalog().configured()) {
            return Map.of();
        }
        Set<String> services = new java.util.TreeSet<>();
        services.add(service);
        blast.ifPresent(b -> b.nodes().stream().filter(n -> TopologyGraph.SERVICE_KINDS.contains(n.kind())).map(AffectedNode::name)
                .map(names).forEach(services::add));
        Map<String, String> contacts = new java.util.TreeMap<>();
        for (String name : services) {
            toolkit.catalog().entry(name).flatMap(GeneratePostmortemTool::contact).ifPresent(c -> contacts.put(name, c));
        }
        return contacts;
    }

    /** {@code team-payments (#payments-oncall)}, {@code team-payments}, or {@code #payments-oncall}; empty when the entry names neither. */
    static Optional<String> contact(JsonObject entry) {
        String owner = entry.get("owner") instanceof jakarta.json.JsonString s ? s.getString().strip() : "";
        String onCall = entry.get("onCall") instanceof jakarta.json.JsonString s ? s.getString().strip() : "";
        if (owner.isEmpty()) {
            return onCall.isEmpty() ? Optional.empty() : Optional.of(onCall);
        }
        return Optional.of(onCall.isEmpty() ? owner : owner + " (" + onCall + ")");
    }

    /** The report's scope: the service and everything its degradation reaches, as the report names them. */
    private static Set<String> scope(String service, Optional<BlastRadius> blast, UnaryOperator<String> names) {
        Set<String> related = new HashSet<>();
        related.add(service);
        blast.ifPresent(b -> reachedNames(b, names).forEach(related::add));
        return related;
    }

    /**
     * The names of what a walk reached: its listed nodes and, beyond the listing's cap, the affected
     * services and workloads of the whole walk, so a service behind hundreds of pods and containers
     * still counts as reached.
     */
    private static Set<String> reachedNames(BlastRadius radius, UnaryOperator<String> names) {
        Set<String> reached = new HashSet<>();
        radius.nodes().stream().map(AffectedNode::name).map(names).forEach(reached::add);
        radius.affectedServices().stream().map(names).forEach(reached::add);
        return reached;
    }

    /**
     * How the report names a service recorded or listed under {@code name}. The anomaly history keeps
     * each score under the name the judging call was given, so {@code shop/payments} and
     * {@code payments} may both hold scores of one service, and the blast radius names services
     * bare. Two names are one service when the topology resolves them to the same resources: the
     * report's own service then goes by the name the caller gave, any other by its bare name when that
     * name alone means the same resources (one namespace has it), else as recorded.
     */
    static UnaryOperator<String> reportNames(TopologyGraph graph, String service) {
        List<String> own = graph.resolve(service);
        Map<String, String> cache = new HashMap<>();
        return name -> cache.computeIfAbsent(name, n -> {
            if (n.equals(service)) {
                return n;
            }
            List<String> resolved = graph.resolve(n);
            if (resolved.isEmpty()) {
                return n;
            }
            if (resolved.equals(own)) {
                return service;
            }
            int slash = n.lastIndexOf('/');
            if (slash > 0 && slash < n.length() - 1 && graph.resolve(n.substring(slash + 1)).equals(resolved)) {
                return n.substring(slash + 1);
            }
            return n;
        });
    }

    private static HistoryRow renamed(HistoryRow row, UnaryOperator<String> names) {
        String name = names.apply(row.service());
        return name.equals(row.service()) ? row
                : new HistoryRow(name, row.signal(), row.at(), row.score(), row.anomalous(), row.kind(), row.onset());
    }

    /**
     * For each service outside the scope with an anomaly, whether {@code service} is in its blast
     * radius (its degradation could explain the suspect's). Asked only of a complete topology; a
     * service the topology does not know, or whose walk stopped at its cap first, gets no entry.
     */
    /** The anomalous services of the scope other than {@code service}, in name order. */
    private static Set<String> anomalousIn(List<HistoryRow> timeline, String service) {
        Set<String> anomalous = new java.util.TreeSet<>();
        timeline.stream().filter(HistoryRow::anomalous).map(HistoryRow::service).filter(s -> !s.equals(service)).forEach(anomalous::add);
        return anomalous;
    }

    /**
     * @param reachesInScope filled, per outside service, with the {@code anomalousInScope} services
     *     its blast radius holds (when any)
     */
    private Map<String, Boolean> reachesService(TopologyGraph graph, String service, List<HistoryRow> outside, Set<String> anomalousInScope,
            Map<String, List<String>> reachesInScope, UnaryOperator<String> names) {
        Map<String, Boolean> reaches = new HashMap<>();
        outside.stream().filter(HistoryRow::anomalous).map(HistoryRow::service).distinct().forEach(other -> {
            BlastRadius radius = walker.walk(graph, List.of(other), BlastRadiusOptions.defaults());
            if (radius.unresolved().contains(other)) {
                return;
            }
            Set<String> reached = reachedNames(radius, names);
            List<String> held = reached.stream().filter(anomalousInScope::contains).sorted().toList();
            if (!held.isEmpty()) {
                reachesInScope.put(other, held);
            }
            boolean found = reached.contains(service);
            if (found || !radius.truncated()) {
                reaches.put(other, found);
            }
        });
        return reaches;
    }

    /** The custom template when one is readable, else the built-in layout (spec 4.4). */
    private String markdown(PostmortemReport report) {
        Optional<PostmortemTemplate> template;
        try {
            template = toolkit.postmortemTemplate();
        } catch (RuntimeException e) {
            // the template source is the operator's file: a failure to read it must not fail the draft
            LOG.warn("event=postmortem-template-unusable error={}; using the built-in layout", e.getClass().getName());
            template = Optional.empty();
        }
        return template.map(t -> t.render(report)).orElseGet(() -> PostmortemMarkdown.render(report));
    }

    /** Names the sources that failed, so a markdown reader knows the draft is partial. */
    private static String footnote(List<Failed> failed) {
        if (failed.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("\n> Partial data: ");
        for (int i = 0; i < failed.size(); i++) {
            Failed f = failed.get(i);
            // what a source said is its text, not markdown: escaped as the draft escapes every name and note
            b.append(i == 0 ? "" : "; ").append(PostmortemMarkdown.text(f.source())).append(" (").append(f.signal()).append(") failed: ")
                    .append(PostmortemMarkdown.text(f.error()));
            f.query().ifPresent(q -> b.append(" (while running `").append(PostmortemMarkdown.code(q)).append("`)"));
        }
        return b.append(".\n").toString();
    }

    /**
     * Names the sources of one section that warned alongside their answers and what they said, so a
     * markdown reader knows the section may be built from part of the data only: log highlights
     * counted from part of the lines, related traces without those a traces source lost between
     * its search and its fetch (which the warning names), anomaly scores judged without the points a
     * metrics plugin answered outside the window (the gateway's line, listed with the source's own).
     *
     * @param heading what the warnings mean for the section
     * @param signal what was asked of the sources: traces, logs or metrics
     */
    private static String warnings(String heading, String signal, WarnedSources warned) {
        if (warned.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("\n> ").append(heading).append(": ");
        List<JsonObject> entries = warned.entries();
        for (int i = 0; i < entries.size(); i++) {
            JsonObject entry = entries.get(i);
            b.append(i == 0 ? "" : "; ").append(PostmortemMarkdown.text(entry.getString("source"))).append(" (").append(signal)
                    .append(") warned: ")
                    .append(PostmortemMarkdown.text(String.join(" / ",
                            entry.getJsonArray("warnings").getValuesAs(jakarta.json.JsonString::getString))));
        }
        return b.append(".\n").toString();
    }

    private static String kind(Gathered.Failure f) {
        return f.kind().wireName();
    }

    /** What the parallel fan-outs gathered. */
    private record Gatherings(TopologySnapshot topology, QueryTracesTool.Search traces, List<Gathered<LogResult>> logs,
            Optional<PostmortemDetection.Outcome> detection) {}

    /** The detection to run beside the gathering: the report's window and its end. */
    private record DetectionAsk(Duration reportWindow, Instant reportEnd) {}

    /**
     * Topology, traces and one log search per level, all at once: the call takes as long as its
     * slowest source, and never longer than the deadline. Each fan-out gets what is left of it, and
     * a fan-out still running at the deadline (a connector that ignores its interrupt) is given up:
     * its sources count as timed out and the draft is built from the rest.
     */
    private Gatherings gather(Principal principal, String service, String window, TimeRange range, TimeRange logRange,
            CallDeadline deadline, Optional<DetectionAsk> detect) {
        TraceQueryEcho echo = new TraceQueryEcho(service, window, TRACE_LIMIT, false);
        List<Bound<TopologyCapability>> topologySources = toolkit.sources().with(TopologyCapability.class, principal);
        List<Bound<TracesCapability>> traceSources = toolkit.sources().with(TracesCapability.class, principal);
        List<Bound<LogsCapability>> logSources = toolkit.sources().with(LogsCapability.class, principal);
        // Not try-with-resources: close() would wait for the fan-outs the deadline gave up on.
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<Gathered<Topology>> topology = executor.submit(
                    () -> Gathered.from(toolkit, topologySources, c -> c.topology(""), deadline.remaining()));
            // the search query_traces runs (ranking the window, resolving namespaced names), within what is left
            Future<QueryTracesTool.Search> traces = executor.submit(
                    () -> QueryTracesTool.search(toolkit, principal, echo, range, Optional.empty(), deadline.remaining()));
            Optional<Future<PostmortemDetection.Outcome>> detection = detect.map(ask -> executor.submit(
                    () -> PostmortemDetection.run(toolkit, principal, service, ask.reportWindow(), ask.reportEnd(), deadline)));
            List<Future<Gathered<LogResult>>> logs = new ArrayList<>();
            // made out here so that a search given up at the deadline still names the query it was running
            List<Gathered.Listening<LogsCapability>> heard = new ArrayList<>();
            for (String level : HIGHLIGHT_LEVELS) {
                LogQuery query = new LogQuery(service, logRange, Optional.empty(), Optional.of(level), Map.of(), LOG_LINES_PER_LEVEL);
                Gathered.Listening<LogsCapability> listening = Gathered.listening(logSources);
                heard.add(listening);
                logs.add(executor.submit(() -> listening.reporting(toolkit,
                        (c, listener) -> AskedLimit.lines(c.queryLogs(query, listener), query.limit()), deadline.remaining())));
            }
            TopologySnapshot topologyFound = TopologySnapshot.of(deadline.await(topology, () -> late(topologySources)));
            QueryTracesTool.Search tracesFound = deadline.await(traces,
                    () -> QueryTracesTool.unanswered(toolkit, echo, late(traceSources)));
            List<Gathered<LogResult>> logsFound = new ArrayList<>();
            for (int i = 0; i < logs.size(); i++) {
                Gathered.Listening<LogsCapability> listening = heard.get(i);
                logsFound.add(deadline.await(logs.get(i), () -> listening.unanswered(ConnectorException.Kind.TIMEOUT, lateMessage())));
            }
            Optional<PostmortemDetection.Outcome> detected = detection.map(d -> deadline.await(d,
                    () -> PostmortemDetection.Outcome.late(PostmortemDetection.windowFor(detect.orElseThrow().reportWindow()),
                            toolkit.sources().with(MetricsCapability.class, principal).stream().map(Bound::source).toList(),
                            lateMessage())));
            return new Gatherings(topologyFound, tracesFound, logsFound, detected);
        } finally {
            executor.shutdownNow();
        }
    }

    /** What a fan-out still running at the deadline counts as: every one of its sources timed out. */
    private <C, R> Gathered<R> late(List<Bound<C>> sources) {
        return Gathered.unanswered(sources, ConnectorException.Kind.TIMEOUT, lateMessage());
    }

    private String lateMessage() {
        return "no answer within the tool's " + seconds(toolkit.deadline()) + " deadline";
    }

    /**
     * The part of the tool's deadline the sources may use: the rest (a twentieth, at most a second)
     * is kept for reading the history and building the draft, so the answer itself is on time.
     */
    static Duration gatheringBudget(Duration deadline) {
        Duration reserve = deadline.dividedBy(20);
        return deadline.minus(reserve.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : reserve);
    }

    /** {@code 20 s}, {@code 0.57 s}. */
    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }
}
